import Testing

@testable import SlateCore

/// What the CLI tells a newcomer: ids written in decimal, colour, access to a device, `slate record`'s progress.
@Suite struct NewcomerMessagesTests {
    static let pedal = (vendor: UInt16(0x3553), product: UInt16(0xB001))

    func profile(_ match: String) throws -> Profile {
        try ProfileLoader.load(
            "inputs:\n  pedals:\n    match: \(match)\n    bind: {KEY_B: primary}\ncapture: {primary: {click: [take.toggle]}}\n",
            file: "rig.yaml"
        ).get()
    }

    @Test func aDecimalVendorIsAWarningWhenOnlyItsHexReadingIsPresent() throws {
        let rig = try profile("{vendor: 3553, product: 0xb001}")
        let warnings = DecimalID.warnings(rig, present: [Self.pedal])
        #expect(
            warnings.map(\.description) == [
                "rig.yaml:3:21: warning: vendor 3553 is decimal (0x0de1): no device present has it, but one has 0x3553; write 0x3553 if that is the device"
            ])
    }

    @Test func aDecimalIdADevicePresentHasIsNoWarning() throws {
        let rig = try profile("{vendor: 3553, product: 45057}")
        #expect(DecimalID.warnings(rig, present: [(0x0DE1, 0xB001)]).isEmpty)
        #expect(DecimalID.warnings(rig, present: []).isEmpty)
        #expect(try DecimalID.warnings(profile("{vendor: 0x3553}"), present: [Self.pedal]).isEmpty)
        // 45057 read as hex is more than 16 bits: nothing to suggest.
        #expect(try DecimalID.warnings(profile("{product: 45057}"), present: [Self.pedal]).isEmpty)
    }

    @Test func colourOnlyOnATerminalWithoutNoColorOrADumbTerm() {
        #expect(TerminalColor.wanted(isTerminal: true, noColor: nil, term: "xterm-256color"))
        #expect(TerminalColor.wanted(isTerminal: true, noColor: "", term: nil))
        #expect(!TerminalColor.wanted(isTerminal: true, noColor: "1", term: "xterm"))
        #expect(!TerminalColor.wanted(isTerminal: true, noColor: nil, term: "dumb"))
        #expect(!TerminalColor.wanted(isTerminal: false, noColor: nil, term: "xterm"))
        let warning = Diagnostic(file: "rig.yaml", line: 2, column: 5, message: "m", severity: .warning)
        #expect(TerminalColor.paint(warning) == "rig.yaml:2:5: \u{1B}[1;35mwarning:\u{1B}[0m m")
        #expect(
            TerminalColor.paint(Diagnostic(file: "rig.yaml", line: 1, column: 1, message: "m"))
                == "rig.yaml:1:1: \u{1B}[1;31merror:\u{1B}[0m m")
    }

    @Test func accessNamesTheWayThatGivesTheDevice() {
        let headless = DeviceAccess(user: "rigger", hasSeat: false).advice(group: "input", taggedBySlate: true)
        #expect(headless.hasPrefix("no seat is rigger's here"))
        #expect(headless.contains("sudo usermod -aG input rigger, then log in again"))
        let desk = DeviceAccess(user: "ana", hasSeat: true)
        #expect(desk.advice(group: "input", taggedBySlate: false).contains("sudo slate setup --udev writes a rule for it"))
        #expect(desk.advice(group: "video", taggedBySlate: true).hasPrefix("Slate's udev rules tag it for the seat's user"))
        #expect(desk.advice(group: nil, taggedBySlate: true).contains("no group may read it"))
        let again = DeviceAccess(user: "rigger", hasSeat: false).advice(group: "video", listed: true, taggedBySlate: true)
        #expect(again.contains("rigger is in the video group, but this login is not: log in again"), "\(again)")
        #expect(!again.contains("usermod"))
    }

    @Test func recordProgressShowsTimeFramesDropsAndPeaks() {
        var progress = RecordProgress(
            elapsed: .milliseconds(1500), length: .seconds(10), take: TakeSummary(duration: .milliseconds(1500), frames: 45),
            level: nil)
        #expect(progress.text == "recording 1.5 s of 10.0 s  45 frames  0 dropped")
        progress.level = AudioLevel(samples: [8192, 0, -4096, 0], channels: 2)
        #expect(progress.text == "recording 1.5 s of 10.0 s  45 frames  0 dropped  L -12.0 dB R -inf dB")
    }
}
