import Foundation
import SlateTestSupport
import Testing

@testable import SlateCore

/// What reaches a rig from outside, at and past its budgets: commands from
/// the broker, profiles reloaded with SIGHUP, text printed on a terminal.
@Suite struct HostileInputTests {
    static let pedal = TestDevice.footswitch.inputs(["KEY_B": "take.toggle"])
    static let mqtt = "mqtt: {broker: mqtt://b, rig: cam-a}\n"

    func load(_ yaml: String) -> Result<Profile, ProfileErrors> {
        ProfileLoader.load(Self.pedal + yaml, file: "rig.yaml")
    }

    func errors(_ yaml: String) -> [String] {
        switch load(yaml) {
        case .success: return []
        case .failure(let errors): return errors.diagnostics.map(\.message)
        }
    }

    // MARK: commands' fields

    static let realtime: Int64 = 1_795_000_000_000_000_000
    let now = Instant(microseconds: 50_000_000)

    func arrival(_ command: RigCommandMessage) -> CommandInbox.Arrival {
        var inbox = CommandInbox()
        return inbox.receive(command, now: now, realtimeNs: Self.realtime, frame: .milliseconds(33))
    }

    @Test func anyInstantIsRefusedOrScheduledNeverTraps() {
        for at in [Int64.min, Int64.min + 1, -1, 0, 1, Self.realtime - Int64.max / 2, Int64.max - 1, Int64.max] {
            let arrival = arrival(RigCommandMessage(action: "zoom.step", at: at, id: "o1"))
            guard case .refused = arrival else {
                Issue.record("at \(at) gave \(arrival)")
                continue
            }
        }
        #expect(
            arrival(RigCommandMessage(action: "zoom.step", at: Int64.min, id: "o1"))
                == .refused("a command's at is nanoseconds since 1970 on CLOCK_REALTIME, not -9223372036854775808"))
        #expect(arrival(RigCommandMessage(action: "zoom.step", at: Self.realtime, id: "o1")) == .scheduled(now))
    }

    @Test func idsSendersAndActionsOutsideTheirFormsAreRefused() {
        let id = "a command's id is 1 to 128 printable ASCII characters without spaces"
        #expect(arrival(RigCommandMessage(action: "take.start", id: "")) == .refused(id))
        #expect(arrival(RigCommandMessage(action: "take.start", id: String(repeating: "x", count: 129))) == .refused(id))
        #expect(arrival(RigCommandMessage(action: "take.start", id: String(repeating: "x", count: 128))) == .scheduled(now))
        #expect(arrival(RigCommandMessage(action: "take.start", id: "a\u{1B}]0;pwned\u{07}")) == .refused(id))
        #expect(arrival(RigCommandMessage(action: "take.start", id: "é")) == .refused(id))
        let from = "a command's from is the sending rig's name: 1 to 32 lowercase letters, digits and dashes"
        #expect(arrival(RigCommandMessage(action: "take.start", id: "a", from: "\u{1B}[2J")) == .refused(from))
        #expect(arrival(RigCommandMessage(action: "take.start", id: "a", from: "")) == .refused(from))
        let action = "an action is one line of at most 200 characters"
        #expect(arrival(RigCommandMessage(action: String(repeating: "z", count: 201), id: "a")) == .refused(action))
        #expect(arrival(RigCommandMessage(action: "take.start\nstopped take 9", id: "a")) == .refused(action))
        // One character of a million combining marks is still a million scalars.
        let zalgo = "z" + String(repeating: "\u{0301}", count: 1000)
        #expect(arrival(RigCommandMessage(action: zalgo, id: "a")) == .refused(action))
    }

    @Test func aRefusalQuotesALongActionShort() {
        let command = RigCommandMessage(action: String(repeating: "a", count: 4_000_000), id: "a")
        #expect(command.shownAction == String(repeating: "a", count: 60) + "...")
    }

    @Test func topicsOfRigsWithoutARigsNameAreNotRead() {
        let topics = RigTopics()
        #expect(topics.parse("slate/cam-b/state")! == ("cam-b", .state))
        #expect(topics.parse("slate/all/cmd")! == ("all", .cmd))
        #expect(topics.parse("slate/\u{1B}[2J/state") == nil)
        #expect(topics.parse("slate/Cam-B/state") == nil)
        #expect(topics.parse("slate//state") == nil)
        #expect(topics.parse("slate/" + String(repeating: "a", count: 33) + "/state") == nil)
    }

    // MARK: what a command may run

    func steps(_ text: String, _ origin: CommandSteps.Origin, _ yaml: String) -> Result<[Action], ActionTextError> {
        guard case .success(let profile) = load(Self.mqtt + yaml) else {
            Issue.record("the profile does not load: \(errors(Self.mqtt + yaml))")
            return .failure(ActionTextError("no profile"))
        }
        return CommandSteps.steps(text, from: origin, in: profile).map { $0.map(\.action) }
    }

    @Test func aCommandRunsOnlyTheMacrosTheRigAccepts() throws {
        let macros = """
            macros:
              mark: [sound shutter]
              backup: [{exec: [rsync, -a, takes, /mnt/nas]}]
              other: [zoom.set 2]

            """
        let accepting =
            macros + "mqtt: {broker: mqtt://b, rig: cam-a, accept-macros: [mark, backup], accept-programs: [backup]}\n"
        #expect(steps("take.start", .broker, macros) == .success([.takeStart]))
        #expect(
            steps("mark", .broker, macros)
                == .failure(ActionTextError("macro 'mark' is not one this rig accepts from others (mqtt.accept-macros)")))
        #expect(steps("mark", .thisRig, macros) == .success([.sound("shutter")]))
        #expect(
            steps("backup", .broker, macros)
                == .failure(ActionTextError("macro 'backup' is not one this rig accepts from others (mqtt.accept-macros)")))
        #expect(steps("exec [reboot]", .broker, macros).isFailure)
        // With the lists (the mqtt section given twice is refused, so this profile has its own).
        guard case .success(let profile) = ProfileLoader.load(Self.pedal + accepting, file: "rig.yaml") else {
            Issue.record("\(errors(accepting))")
            return
        }
        #expect(try CommandSteps.steps("mark", from: .broker, in: profile).get().map(\.action) == [.sound("shutter")])
        #expect(try CommandSteps.steps("backup", from: .broker, in: profile).get().count == 1)
        #expect(CommandSteps.steps("other", from: .broker, in: profile).isFailure)
    }

    @Test func aMacroThatRunsAProgramIsAcceptedOnlyWhenSaidTwice() {
        let macros = "macros: {backup: [{exec: [rsync]}], mark: [sound shutter]}\n"
        let base = "mqtt: {broker: mqtt://b, rig: cam-a, "
        #expect(
            errors(macros + base + "accept-macros: [backup]}")
                == ["mqtt.accept-macros: 'backup' runs a program: list it in mqtt.accept-programs too to let other rigs run it"])
        #expect(
            errors(macros + base + "accept-programs: [backup]}") == [
                "mqtt.accept-programs: 'backup' is not in mqtt.accept-macros"
            ])
        #expect(
            errors(macros + base + "accept-macros: [mark], accept-programs: [mark]}")
                == ["mqtt.accept-programs: 'mark' runs no program; list it in accept-macros only"])
        #expect(errors(macros + base + "accept-macros: [nope]}") == ["mqtt.accept-macros: 'nope' is not a macro of this profile"])
        #expect(errors(macros + base + "accept-macros: [backup, mark], accept-programs: [backup]}") == [])
    }

    @Test func aMacroThatSendsOnIsNeverRunByACommand() throws {
        let profile = try load(Self.mqtt + "macros: {relay: [zoom.set 2, rigs take.stop]}").get()
        for origin in [CommandSteps.Origin.thisRig, .broker] {
            #expect(
                CommandSteps.steps("relay", from: origin, in: profile)
                    == .failure(ActionTextError("macro 'relay' sends on (rigs or rig), which a command never does")))
            #expect(
                CommandSteps.steps("rigs take.start", from: origin, in: profile)
                    == .failure(ActionTextError("a command does not send on")))
        }
    }

    @Test func aMacroSendingItselfToTheRigsIsAnError() {
        #expect(
            errors(Self.mqtt + "macros: {ping: [rigs ping]}")
                == [
                    "macro 'ping' sends ping to the rigs, but ping sends on (rigs or rig) itself, which no rig runs from a command"
                ])
        let bound = """
            macros: {ping: [sound shutter, rig cam-b ping]}
            capture: {primary: {click: rigs ping}}
            """
        #expect(errors(Self.mqtt + bound).contains { $0.hasPrefix("primary click sends ping to the rigs") })
    }

    // MARK: macros' budgets

    /// Nine levels of macros, each calling the one below ten times: 10^9 steps in 600 bytes.
    static let bomb: String = {
        var lines = ["macros:", "  l0: [sound shutter]"]
        for level in 1...9 {
            lines.append("  l\(level): [" + Array(repeating: "l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\ncapture: {primary: {click: l9}}\n"
    }()

    @Test func anExpansionBombIsRefusedAtOnce() {
        let start = ContinuousClock.now
        let found = errors(Self.bomb)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(found.contains("macro 'l4' expands to 10000 steps, more than 1000"))
        #expect(found.contains("macro 'l9' expands to 1000000000 steps, more than 1000"))
        #expect(!found.contains { $0.contains("'l3'") })
    }

    @Test func macrosAtTheirBudgets() {
        let thousand = "macros: {big: [" + Array(repeating: "sound shutter", count: 1000).joined(separator: ", ") + "]}"
        #expect(errors(thousand) == [])
        let more = "macros: {big: [" + Array(repeating: "sound shutter", count: 1001).joined(separator: ", ") + "]}"
        #expect(errors(more) == ["macro 'big' expands to 1001 steps, more than 1000"])
        let handler =
            "macros: {big: [" + Array(repeating: "sound shutter", count: 600).joined(separator: ", ")
            + "]}\ncapture: {primary: {click: [big, big]}}"
        #expect(errors(handler) == ["primary click expands to 1200 steps, more than 1000"])
        func chain(_ depth: Int) -> String {
            "macros:\n  m1: [sound shutter]\n" + (2...depth).map { "  m\($0): [m\($0 - 1)]" }.joined(separator: "\n")
        }
        #expect(errors(chain(16)) == [])
        #expect(errors(chain(17)) == ["macro 'm17' nests macro calls 17 deep, more than 16"])
        let many = "macros:\n" + (0...1000).map { "  m\($0): [sound shutter]" }.joined(separator: "\n")
        #expect(errors(many) == ["a profile holds at most 1000 macros"])
    }

    @Test func aLongChainOfMacrosIsCheckedQuickly() {
        let chain = "macros:\n  m0: [sound shutter]\n" + (1..<1000).map { "  m\($0): [m\($0 - 1)]" }.joined(separator: "\n")
        let start = ContinuousClock.now
        let found = errors(chain)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(found.count == 1000 - 16)
    }

    // MARK: text for a terminal

    @Test func anOBSReasonIsKeptShort() {
        let long = OBSReport(
            time: now, target: "ws://127.0.0.1:4455", request: "StartRecord", failure: String(repeating: "x", count: 1 << 20))
        #expect(long.failure == String(repeating: "x", count: 300) + "...")
        let short = OBSReport(time: now, target: "ws://127.0.0.1:4455", request: "StartRecord", failure: "\u{1B}]0;x\u{7}")
        #expect(short.failure == "\u{1B}]0;x\u{7}")
    }

    @Test func controlCharactersAndReorderingMarksAreEscaped() {
        #expect(TerminalText.safe("take 1  /tmp/a b.mp4") == "take 1  /tmp/a b.mp4")
        #expect(TerminalText.safe("\u{1B}]0;pwned\u{07}x") == "\\u{1B}]0;pwned\\u{7}x")
        #expect(TerminalText.safe("a\rb\nc\u{7F}\u{9B}") == "a\\u{D}b\\u{A}c\\u{7F}\\u{9B}")
        #expect(TerminalText.safe("cam\u{202E}a") == "cam\\u{202E}a")
        #expect(TerminalText.safe("café ✓") == "café ✓")
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
