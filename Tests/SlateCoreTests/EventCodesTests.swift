import SlateCore
import Testing

@Suite struct EventCodesTests {
    @Test func bindableNamesAreFoundInAnyCaseWithTheirAliases() throws {
        let misc = try #require(EventCodes.names(startingWith: "btn_misc").first)
        #expect(misc.code == EventCode(type: EventType.key, code: 0x100))
        #expect(misc.aliasOf == "BTN_0")
        #expect(EventCodes.names(startingWith: "BTN_0").first?.aliases == ["BTN_MISC"])
        #expect(EventCodes.names(startingWith: "key_volume").map(\.name) == ["KEY_VOLUMEDOWN", "KEY_VOLUMEUP"])
        #expect(EventCodes.names(startingWith: "KEY_LINK_PHONE").map(\.code.code) == [0x1bf])
        #expect(EventCodes.names(startingWith: "REL_").count == 13)
        #expect(EventCodes.names(startingWith: "KEY_").allSatisfy { !$0.name.hasSuffix("_MAX") })
        #expect(EventCodes.names(startingWith: "SW_").isEmpty)
        #expect(EventCodes.names(startingWith: "volume").isEmpty)
        #expect(EventCodes.names(containing: "volume").map(\.name) == ["KEY_VOLUMEDOWN", "KEY_VOLUMEUP"])
        for entry in EventCodes.bindableNames {
            #expect(EventCodes.code(named: entry.name) == entry.code, "\(entry.name)")
        }
    }

    @Test func libevdevNames() {
        #expect(EventCodes.name(type: EventType.key, code: 114) == "KEY_VOLUMEDOWN")
        #expect(EventCodes.name(type: EventType.key, code: 164) == "KEY_PLAYPAUSE")
        #expect(EventCodes.name(type: EventType.rel, code: 7) == "REL_DIAL")
        #expect(EventCodes.name(type: EventType.syn, code: SynCode.dropped) == "SYN_DROPPED")
        #expect(EventCodes.name(type: EventType.key, code: 0x100) == "BTN_0")
        #expect(EventCodes.name(type: EventType.key, code: 0x130) == "BTN_SOUTH")
        #expect(EventCodes.typeName(EventType.key) == "EV_KEY")
        #expect(EventCodes.typeName(EventType.ffStatus) == "EV_FF_STATUS")
    }

    @Test func namesToCodes() {
        #expect(EventCodes.code(named: "KEY_VOLUMEDOWN") == EventCode(type: EventType.key, code: 114))
        #expect(EventCodes.code(named: "KEY_PLAYPAUSE") == EventCode(type: EventType.key, code: 164))
        #expect(EventCodes.code(named: "REL_DIAL") == EventCode(type: EventType.rel, code: 7))
        #expect(EventCodes.code(named: "SW_LID") == EventCode(type: EventType.sw, code: 0))
        #expect(EventCodes.type(named: "EV_KEY") == EventType.key)
        #expect(EventCodes.type(named: "EV_REL") == EventType.rel)
    }

    @Test(arguments: [
        ("BTN_MISC", "BTN_0"), ("BTN_MOUSE", "BTN_LEFT"), ("BTN_GAMEPAD", "BTN_SOUTH"),
        ("BTN_A", "BTN_SOUTH"), ("BTN_DIGI", "BTN_TOOL_PEN"), ("KEY_SCREENLOCK", "KEY_COFFEE"),
        ("KEY_HANGUEL", "KEY_HANGEUL"), ("SW_RADIO", "SW_RFKILL_ALL"),
        ("BTN_TRIGGER_HAPPY", "BTN_TRIGGER_HAPPY1"),
    ])
    func aliases(alias: String, name: String) throws {
        let code = try #require(EventCodes.code(named: alias))
        #expect(code == EventCodes.code(named: name))
        #expect(code.name == name)
    }

    @Test(arguments: [
        "", "KEY_", "KEY_NOPE", "key_volumedown", "KEY_VOLUMEDOWN ", "EV_KEY",
        "KEY_CNT", "KEY_MIN_INTERESTING", "ABS_CNT", "FF_MAX_EFFECTS", "INPUT_PROP_POINTER",
    ])
    func unknownNames(name: String) {
        #expect(EventCodes.code(named: name) == nil)
    }

    @Test func unknownTypes() {
        #expect(EventCodes.type(named: "KEY_A") == nil)
        #expect(EventCodes.type(named: "EV_NOPE") == nil)
        #expect(EventCodes.typeName(0x06) == nil)
        #expect(EventCodes.typeName(0x20) == nil)
        #expect(EventCodes.typeName(.max) == nil)
        #expect(EventCodes.name(type: .max, code: .max) == nil)
        #expect(EventCodes.name(type: EventType.key, code: .max) == nil)
    }

    @Test func maxCodes() {
        #expect(EventCodes.maxCode(type: EventType.key) == 0x2ff)
        #expect(EventCodes.maxCode(type: EventType.rel) == 0x0f)
        #expect(EventCodes.maxCode(type: EventType.pwr) == nil)
        #expect(EventCodes.maxCode(type: 0x06) == nil)
    }

    @Test func fallbackNameForUnnamedCodes() {
        #expect(EventCodes.name(type: EventType.key, code: 0x54) == nil)
        #expect(EventCode(type: EventType.key, code: 0x54).name == "KEY_0x54")
        #expect(EventCode(type: EventType.key, code: 0x54).description == "KEY_0x54")
        #expect(EventCode(type: EventType.key, code: 0x300).name == "KEY_0x300")
        #expect(EventCode(type: EventType.pwr, code: 1).name == "PWR_0x1")
        #expect(EventCode(type: 0x06, code: 0x1f3).name == "EV_6_0x1f3")
        #expect(EventCode(type: EventType.key, code: 114).description == "KEY_VOLUMEDOWN")
    }
}
