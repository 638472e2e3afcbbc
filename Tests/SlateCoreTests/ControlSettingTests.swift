import SlateCore
import Testing

/// `slate controls set NAME=VALUE` resolved against a camera's controls, and control changes applied.
@Suite struct ControlSettingTests {
    let controls = ControlCatalogTests.vivid

    func resolve(_ text: String) throws -> (key: String, value: Int64) {
        let setting = try #require(ControlSetting(text))
        let (control, value) = try setting.resolve(in: controls).get()
        return (control.key, value)
    }

    @Test func aNameIsTheKeyTheDriversNameInAnyCaseOrTheId() throws {
        #expect(try resolve("brightness=200") == ("brightness", 200))
        #expect(try resolve("Gain, Automatic=0") == ("gain_automatic", 0))
        #expect(try resolve("GAIN_AUTOMATIC=1") == ("gain_automatic", 1))
        #expect(try resolve("0x00980913=-7") == ("gain", -7))
        #expect(try resolve("0x98f903=9000000000") == ("integer_64_bits", 9_000_000_000))
    }

    @Test func aMenuValueIsAnIndexOrAnItemsName() throws {
        #expect(try resolve("menu=2") == ("menu", 2))
        #expect(try resolve("menu=menu item 4") == ("menu", 4))
        #expect(try resolve("Menu=Menu-Item-1") == ("menu", 1))
        let bad = try #require(ControlSetting("menu=Item 9")).resolve(in: controls)
        #expect(
            bad.failure?.description
                == "menu takes an integer or one of its items (Menu Item 1, Menu Item 2, Menu Item 4), not 'Item 9'")
        let word = try #require(ControlSetting("brightness=bright")).resolve(in: controls)
        #expect(word.failure?.description == "brightness takes an integer, not 'bright'")
    }

    @Test func anUnknownNameListsTheCloseOnes() throws {
        let typo = try #require(ControlSetting("brigthness=1")).resolve(in: controls)
        #expect(typo.failure?.description == "no control 'brigthness'; did you mean brightness?")
        let part = try #require(ControlSetting("gain_auto=1")).resolve(in: controls)
        #expect(part.failure == .noSuchControl("gain_auto", close: ["gain", "gain_automatic"]))
        let far = try #require(ControlSetting("focus=1")).resolve(in: controls)
        #expect(far.failure?.description == "no control 'focus'; `slate controls` lists them")
        let id = try #require(ControlSetting("0x00980999=1")).resolve(in: controls)
        #expect(id.failure?.description == "no control '0x00980999'; `slate controls` lists them")
    }

    @Test func aSettingNeedsBothSides() {
        #expect(ControlSetting("brightness") == nil && ControlSetting("=1") == nil && ControlSetting("brightness=") == nil)
        #expect(ControlSetting("menu=Menu Item=4") == ControlSetting(name: "menu", value: "Menu Item=4"))
    }

    @Test func aChangeAppliesItsFlagsAndWhatChanged() {
        let gain = controls[2]
        let change = CameraControlChange(
            id: gain.id, value: 57, flags: 0, what: .flags, minimum: 0, maximum: 100, step: 5, defaultValue: 50,
            time: Instant(microseconds: 2_500_000))
        #expect(change.isEnabled && change.what.names == ["flags"])
        let enabled = change.applied(to: gain)
        #expect(enabled.isEnabled && enabled.value == 22 && enabled.maximum == 255)
        var both = change
        both.what = [.value, .range]
        let moved = both.applied(to: gain)
        #expect(moved.value == 57 && moved.maximum == 100 && moved.step == 5 && moved.defaultValue == 50)
        #expect(both.what.names == ["value", "range"])
        let line = ControlChangeLine(change, of: gain, origin: Instant(microseconds: 1_000_000))
        #expect(
            JSONLine.encode(line)
                == #"{"changed":["flags"],"control":"gain","enabled":true,"flags":[],"id":"0x00980913","source":"external","t":1.5,"type":"control","value":57}"#
        )
        var readOnly = change
        readOnly.flags = CameraControl.Flag.readOnly
        #expect(!readOnly.isEnabled)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
