import CEvdev
import SlateCore
import SlateDevices
import Testing

/// SlateCore's generated name table against the installed libevdev.
@Suite struct EventCodesLibevdevTests {
    static let types = UInt16(0)...UInt16(0x1f)

    @Test(arguments: types)
    func typeNameMatchesLibevdev(type: UInt16) {
        let name = LibevdevNames.typeName(type)
        #expect(EventCodes.typeName(type) == name)
        if let name {
            #expect(EventCodes.type(named: name) == type)
            #expect(libevdev_event_type_from_name(name) == Int32(type))
        }
    }

    @Test(arguments: types)
    func maxCodeMatchesLibevdev(type: UInt16) {
        #expect(EventCodes.maxCode(type: type) == LibevdevNames.maxCode(type: type))
    }

    /// Every code up to libevdev's maximum for the type (and a margin past it,
    /// where both must have no name).
    @Test(arguments: types)
    func codeNamesMatchLibevdev(type: UInt16) {
        let last = Int(LibevdevNames.maxCode(type: type) ?? 0) + 0x100
        for code in UInt16(0)...UInt16(last) {
            let name = LibevdevNames.name(type: type, code: code)
            #expect(EventCodes.name(type: type, code: code) == name, "type \(type) code \(code)")
            if let name {
                #expect(EventCodes.code(named: name) == EventCode(type: type, code: code), "\(name)")
                #expect(EventCode(type: type, code: code).name == name)
            }
        }
    }

    @Test func typesBeyondEVMaxHaveNoNames() {
        for type in UInt16(0x20)...UInt16(0x40) {
            #expect(EventCodes.typeName(type) == nil)
            #expect(EventCodes.maxCode(type: type) == nil)
            #expect(EventCodes.name(type: type, code: 0) == nil)
            #expect(LibevdevNames.name(type: type, code: 0) == nil)
        }
    }

    /// Where libevdev resolves a name itself, it agrees with `code(named:)`.
    @Test(arguments: ["BTN_A", "KEY_COFFEE", "KEY_VOLUMEDOWN", "REL_DIAL", "ABS_MT_SLOT", "SW_LID"])
    func codeFromNameMatchesLibevdev(name: String) throws {
        let code = try #require(EventCodes.code(named: name))
        #expect(libevdev_event_code_from_name(UInt32(code.type), name) == Int32(code.code))
    }
}
