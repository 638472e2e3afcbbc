import Foundation
import SlateCore
import Testing

/// Control catalogs (`slate controls --json`): written, read back, and what each control can back.
@Suite struct ControlCatalogTests {
    typealias Flag = CameraControl.Flag

    static func control(
        _ id: UInt32, _ name: String, _ kind: CameraControl.Kind, _ range: ClosedRange<Int64> = 0...255,
        value: Int64? = 0, flags: UInt32 = 0, menu: [(index: Int64, name: String)] = []
    ) -> CameraControl {
        CameraControl(
            id: .init(id), name: name, kind: kind, minimum: range.lowerBound, maximum: range.upperBound, step: 1,
            defaultValue: range.lowerBound, value: value, flags: flags, menu: menu)
    }

    /// Controls like vivid's: one of each type, with menus, flags and values missing.
    static let vivid: [CameraControl] = [
        control(0x0098_0900, "Brightness", .integer, value: 200, flags: Flag.slider),
        control(0x0098_0912, "Gain, Automatic", .boolean, 0...1, value: 1, flags: Flag.update),
        control(0x0098_0913, "Gain", .integer, value: 22, flags: Flag.inactive | Flag.volatile),
        control(0x0098_F900, "Button", .button, 0...0, value: nil, flags: Flag.writeOnly | Flag.executeOnWrite),
        control(0x0098_F903, "Integer 64 Bits", .integer64, Int64.min...Int64.max, value: -5),
        control(0x0098_F904, "Menu", .menu, 1...4, value: 3, menu: [(1, "Menu Item 1"), (2, "Menu Item 2"), (4, "Menu Item 4")]),
        control(0x0098_F906, "Bitmask", .bitmask, 0...0x8040_2010, value: 0x8000_2000),
        control(0x0098_F907, "Integer Menu", .integerMenu, 1...8, value: 4, menu: [(1, "1"), (4, "5"), (8, "-3")]),
        control(0x0098_F90B, "Area", .compound(0x0106), 0...0, value: nil, flags: Flag.hasPayload),
        control(0x0098_F90C, "Read-Only Integer 32 Bits", .integer, value: 0, flags: Flag.readOnly),
        control(
            0x00F0_F03F, "DV Timings", .menu, 0...1, value: 0, flags: Flag.inactive | 0x1000,
            menu: [(0, "640x480p59"), (1, "720x480p59")]),
    ]

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aCatalogReadsBackAsTheControlsItWasWrittenFrom() throws {
        let catalog = ControlCatalog(camera: "vivid", path: "/dev/video0", controls: Self.vivid)
        let line = catalog.json
        #expect(!line.contains("\n"))
        let read = try ControlCatalog.parse(line, file: "vivid.json").get()
        #expect(read == catalog)
        #expect(read.controls.map(\.flags) == Self.vivid.map(\.flags))
        #expect(read.controls[5].menu.map(\.name) == ["Menu Item 1", "Menu Item 2", "Menu Item 4"])
        #expect(read.controls[4].minimum == Int64.min && read.controls[4].maximum == Int64.max)
        #expect(read.controls[8].kind == .compound(0x0106))
        #expect(read.json == line)
    }

    @Test func aControlIsWrittenWithItsKeyNamedFlagsMenuAndWhatItBacks() throws {
        let line = try Self.object(ControlCatalog(camera: "vivid", path: "/dev/video0", controls: Self.vivid).json)
        #expect(line["type"] as? String == "controls" && line["camera"] as? String == "vivid")
        #expect(line["path"] as? String == "/dev/video0")
        let controls = try #require(line["controls"] as? [[String: Any]])
        #expect(controls.count == Self.vivid.count)
        let gain = controls[2]
        #expect(gain["id"] as? String == "0x00980913" && gain["key"] as? String == "gain" && gain["type"] as? String == "int")
        #expect(gain["flags"] as? [String] == ["inactive", "volatile"])
        #expect(gain["backs"] as? [String] == ["slider"])
        #expect(
            gain["min"] as? Int == 0 && gain["max"] as? Int == 255 && gain["step"] as? Int == 1 && gain["value"] as? Int == 22)
        let button = controls[3]
        #expect(button["value"] is NSNull && button["backs"] as? [String] == [] && button["menu"] as? [Any] != nil)
        #expect(button["flags"] as? [String] == ["write-only", "execute-on-write"])
        let menu = try #require(controls[5]["menu"] as? [[String: Any]])
        #expect(menu.map { $0["index"] as? Int } == [1, 2, 4] && menu.first?["name"] as? String == "Menu Item 1")
        #expect(controls[5]["backs"] as? [String] == ["picker"] && controls[5]["type"] as? String == "menu")
        #expect(controls[7]["type"] as? String == "intmenu" && controls[7]["backs"] as? [String] == ["picker"])
        #expect(controls[9]["key"] as? String == "read_only_integer_32_bits" && controls[9]["backs"] as? [String] == [])
        #expect(controls[10]["flags"] as? [String] == ["inactive", "0x00001000"])
    }

    @Test func slateCamerasWritesItsControlsTheSameWay() throws {
        let camera = CameraLine(
            path: "/dev/video0", card: "vivid", driver: "vivid", bus: "platform:vivid-000", errors: [], modes: [],
            controls: Self.vivid, selections: [])
        let controls = try #require(try Self.object(JSONLine.encode(camera))["controls"] as? [[String: Any]])
        let catalog = try #require(
            try Self.object(ControlCatalog(camera: "vivid", path: "/dev/video0", controls: Self.vivid).json)["controls"]
                as? [[String: Any]])
        #expect(controls.map { $0 as NSDictionary } == catalog.map { $0 as NSDictionary })
    }

    // MARK: What a control backs

    static let autoExposure = control(
        0x009A_0901, "Auto Exposure", .menu, 0...3, value: 3, menu: [(1, "Manual Mode"), (3, "Aperture Priority Mode")])
    static let autoOnly = control(
        0x009A_0901, "Auto Exposure", .menu, 0...3, value: 3, menu: [(0, "Auto Mode"), (3, "Aperture Priority Mode")])
    static let exposureTime = control(0x009A_0902, "Exposure Time, Absolute", .integer, 3...2047, value: 250)

    @Test(
        arguments: [
            (control(0x0098_0900, "Brightness", .integer), [], ["slider"]),
            (control(0x0098_0900, "Brightness", .integer, 5...5), [], []),
            (control(0x0098_F903, "Integer 64 Bits", .integer64, -9...9), [], ["slider"]),
            (control(0x0098_0914, "Horizontal Flip", .boolean, 0...1), [], ["picker"]),
            (control(0x0098_F904, "Menu", .menu, 1...4, menu: [(1, "A"), (2, "B")]), [], ["picker"]),
            (control(0x0098_F904, "Menu", .menu, 1...4, menu: [(1, "A")]), [], []),
            (control(0x0098_F907, "Integer Menu", .integerMenu, 0...1, menu: [(0, "1"), (1, "2")]), [], ["picker"]),
            (control(0x009A_090D, "Zoom, Absolute", .integer, 100...500), [], ["slider", "zoom"]),
            (
                control(0x009A_0913, "Auto Exposure, Bias", .integerMenu, 0...2, menu: [(0, "-1000"), (1, "0"), (2, "1000")]), [],
                ["picker", "exposure-bias"]
            ),
            (control(0x009A_0913, "Auto Exposure, Bias", .integer, -3...3), [], ["slider", "exposure-bias"]),
            (exposureTime, [autoExposure], ["slider", "exposure-bias"]),
            (exposureTime, [autoOnly], ["slider"]),
            (exposureTime, [], ["slider", "exposure-bias"]),
            (control(0x0098_0913, "Gain", .integer, flags: Flag.inactive | Flag.volatile), [], ["slider"]),
            (control(0x009A_090D, "Zoom, Absolute", .integer, 100...500, flags: Flag.readOnly), [], []),
            (control(0x0098_F900, "Button", .button, 0...0, value: nil), [], []),
            (control(0x0098_F905, "String", .string, 2...4, value: nil), [], []),
            (control(0x0098_F906, "Bitmask", .bitmask, 0...0xFF), [], []),
        ] as [(CameraControl, [CameraControl], [String])])
    func whatAControlBacks(control: CameraControl, others: [CameraControl], backs: [String]) {
        #expect(control.backings(among: others + [control]).map(\.rawValue) == backs, "\(control.name)")
    }

    @Test func flagsAreNamedAsV4l2CtlNamesThemAndReadBack() {
        let flags = Flag.readOnly | Flag.inactive | Flag.slider | 0x1000
        #expect(Flag.names(flags) == ["read-only", "inactive", "slider", "0x00001000"])
        #expect(Flag.names(flags).compactMap(Flag.flag(named:)).reduce(0, |) == flags)
        #expect(Flag.flag(named: "readonly") == nil && Flag.flag(named: "0x00000003") == nil)
        #expect(Self.vivid[2].flagNames == ["inactive", "volatile"] && !Self.vivid[2].isEnabled && Self.vivid[0].isEnabled)
    }

    // MARK: Errors name the file and what is wrong

    static func catalog(_ controls: String) -> String {
        #"{"type":"controls","camera":"vivid","path":"/dev/video0","controls":["# + controls + "]}"
    }

    static let brightness =
        #"{"id":"0x00980900","name":"Brightness","type":"int","min":0,"max":255,"step":1,"default":128,"value":null}"#

    @Test(arguments: [
        (
            catalog(brightness + "," + brightness.replacingOccurrences(of: "\"int\"", with: "\"float\"")),
            "vivid.json: error: controls[1].type: 'float' is no control type; one of int, bool, menu, button, int64, class, string, bitmask, intmenu, compound-N"
        ),
        (
            catalog(brightness.replacingOccurrences(of: #""max":255,"#, with: "")),
            "vivid.json: error: controls[0]: 'max' is missing"
        ),
        (
            catalog(brightness.replacingOccurrences(of: #""max":255"#, with: #""max":-1"#)),
            "vivid.json: error: controls[0].max: max -1 is below min 0"
        ),
        (
            catalog(brightness.replacingOccurrences(of: "0x00980900", with: "brightness")),
            "vivid.json: error: controls[0].id: a control id is hex such as 0x00980900, not 'brightness'"
        ),
        (
            catalog(brightness.replacingOccurrences(of: #""value":null"#, with: #""value":"high""#)),
            "vivid.json: error: controls[0].value: must be a whole number"
        ),
        (
            catalog(brightness.replacingOccurrences(of: "}", with: #","flags":["sticky"]}"#)),
            "vivid.json: error: controls[0].flags: 'sticky' is no control flag; one of disabled, grabbed, read-only, update, inactive, slider, write-only, volatile, has-payload, execute-on-write, modify-layout, dynamic-array, or a bit in hex"
        ),
        (
            catalog(brightness.replacingOccurrences(of: "}", with: #","menu":[{"index":300,"name":"X"}]}"#)),
            "vivid.json: error: controls[0].menu: menu item 300 is outside 0...255"
        ),
        (
            catalog(brightness.replacingOccurrences(of: "}", with: #","backs":["knob"]}"#)),
            "vivid.json: error: controls[0].backs[0]: 'knob' is nothing a control backs; one of slider, picker, zoom, exposure-bias"
        ),
        (catalog(brightness + "," + brightness), "vivid.json: error: controls: control 0x00980900 appears twice"),
        (
            catalog(brightness).replacingOccurrences(of: #""type":"controls""#, with: #""type":"camera""#),
            "vivid.json: error: type: a control catalog's type is 'controls', not 'camera'"
        ),
        (#"{"type":"controls","camera":"vivid","controls":[]}"#, "vivid.json: error: 'path' is missing"),
    ])
    func aFileThatIsWrongSaysWhereAndWhat(text: String, message: String) {
        guard case .failure(let error) = ControlCatalog.parse(text, file: "vivid.json") else {
            Issue.record("read: \(text)")
            return
        }
        #expect(error.file == "vivid.json")
        #expect(error.description == message)
    }

    @Test func textThatIsNoJSONNamesTheFile() {
        guard case .failure(let error) = ControlCatalog.parse("controls: none", file: "/tmp/c920.json") else {
            Issue.record("read text that is not JSON")
            return
        }
        #expect(error.description.hasPrefix("/tmp/c920.json: error: ") && error.entry.isEmpty, "\(error)")
    }
}
