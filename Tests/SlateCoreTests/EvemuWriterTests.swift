import Testing

@testable import SlateCore

@Suite struct EvemuWriterTests {
    @Test func writtenRecordingsParseBackToTheSameDeviceAndEvents() throws {
        let identity = DeviceIdentity(
            name: "Griffin PowerMate", bus: Bus.usb, vendor: 0x077d, product: 0x0410, version: 0x0400,
            codes: [
                EventCode(type: EventType.key, code: 0x100), EventCode(type: EventType.rel, code: 7),
                EventCode(type: EventType.msc, code: 1), EventCode(type: EventType.key, code: 0x2ff),
                EventCode(type: EventType.abs, code: 0),
            ])
        let axes = [EvemuWriter.AxisInfo(code: 0, minimum: -5, maximum: 1023, fuzz: 0, flat: 4, resolution: 12)]
        let start = Instant(seconds: 5_000, microseconds: 250)
        let events = [
            InputEvent(time: start, type: EventType.key, code: 0x100, value: 1),
            InputEvent(time: start, type: EventType.syn, code: 0, value: 0),
            InputEvent(time: Instant(seconds: 5_001, microseconds: 10), type: EventType.rel, code: 7, value: -3),
            InputEvent(time: Instant(seconds: 5_001, microseconds: 10), type: EventType.syn, code: 0, value: 0),
        ]
        var writer = EvemuWriter()
        let text =
            (EvemuWriter.header(identity, properties: [1], axes: axes) + events.map { writer.event($0) })
            .joined(separator: "\n") + "\n"
        let parsed = try InputRecording.parse(text, file: "written.evemu")
        let device = try #require(parsed.devices.first)
        #expect(device.identity.name == identity.name)
        #expect(device.identity.bus == identity.bus)
        #expect(device.identity.vendor == identity.vendor)
        #expect(device.identity.product == identity.product)
        #expect(device.identity.version == identity.version)
        #expect(device.identity.codes == identity.codes)
        #expect(device.events.map(\.value) == events.map(\.value))
        #expect(device.events.map(\.code) == events.map(\.code))
        #expect(device.events.map { $0.time.microseconds } == [1, 1, 999_761, 999_761])
        #expect(text.contains("E: 0.999761 0002 0007 -3\t# REL_DIAL -3"))
        #expect(text.contains("A: 00 -5 1023 0 4 12"))
    }
}
