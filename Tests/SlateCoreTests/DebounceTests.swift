import Foundation
import Testing

@testable import SlateCore

/// Inputs' `debounce`: the profile's setting, the `Debouncer`, a live rig's
/// deadline for a held release, and the `debounced` line. The bouncing pedal's
/// sessions are golden transcripts (`debounce-*.transcript`).
@Suite struct DebounceTests {
    static let pedal = "inputs:\n  pedal:\n    match: {name: Pedal}\n    bind: {KEY_B: primary}\n"
    static let handlers = "capture: {primary: {click: take.toggle}}\n"

    func load(debounce: String?) -> Result<Profile, ProfileErrors> {
        ProfileLoader.load(Self.pedal + (debounce.map { "    debounce: \($0)\n" } ?? "") + Self.handlers, file: "rig.yaml")
    }

    @Test func inputsDebounceBy25msUnlessTheProfileSays() throws {
        #expect(try load(debounce: nil).get().inputs[0].debounce == .milliseconds(25))
        #expect(try load(debounce: "30ms").get().inputs[0].debounce == .milliseconds(30))
        #expect(try load(debounce: "100ms").get().inputs[0].debounce == .milliseconds(100))
        #expect(try load(debounce: "0").get().inputs[0].debounce == .zero)
        #expect(try load(debounce: "0ms").get().inputs[0].debounce == .zero)
    }

    /// How long a recorder waits for a click's take commands (`TakeRecorder.awaitButtons`).
    @Test func theLongestDebounceIsTheLongestInputsWindow() throws {
        let profile = try ProfileLoader.load(
            """
            inputs:
              pedal: {match: {name: Pedal}, bind: {KEY_B: primary}, debounce: 0}
              keys: {match: {name: Keys}, bind: {KEY_A: primary}, debounce: 40ms}
              knob: {match: {name: Knob}, bind: {BTN_0: primary}}
            capture: {primary: {click: take.toggle}}
            """, file: "rig.yaml"
        ).get()
        #expect(profile.longestDebounce == .milliseconds(40))
    }

    @Test func aDebounceThatIsNoDurationOrTooLongIsAnErrorAtItsPlace() {
        func errors(_ debounce: String) -> [String] {
            guard case .failure(let errors) = load(debounce: debounce) else { return [] }
            return errors.diagnostics.map(\.description)
        }
        #expect(errors("25") == ["rig.yaml:5:15: error: debounce must be a duration such as 25ms, or 0 to turn it off, not '25'"])
        #expect(
            errors("soon") == ["rig.yaml:5:15: error: debounce must be a duration such as 25ms, or 0 to turn it off, not 'soon'"])
        #expect(
            errors("150ms") == [
                "rig.yaml:5:15: error: debounce is at most 100ms, not 150ms: a quick second press would be folded into the first"
            ])
    }

    @Test func onlyAPressOfTheSameButtonWithinTheWindowFolds() {
        func release(_ micros: Int64, code: UInt16 = 48) -> InputEvent {
            InputEvent(time: Instant(microseconds: micros), type: EventType.key, code: code, value: 0)
        }
        func press(_ micros: Int64, code: UInt16 = 48) -> InputEvent {
            InputEvent(time: Instant(microseconds: micros), type: EventType.key, code: code, value: 1)
        }
        var debouncer = Debouncer()
        debouncer.hold(release(1_000), source: 0, input: 0, window: .milliseconds(25))
        #expect(debouncer.nextDeadline == Instant(microseconds: 26_000))
        #expect(debouncer.fold(press(2_000, code: 30), source: 0) == nil)
        #expect(debouncer.fold(press(2_000), source: 1) == nil)
        #expect(debouncer.fold(release(2_000), source: 0) == nil)
        #expect(debouncer.fold(press(26_000), source: 0) == nil)
        #expect(debouncer.fold(press(25_999), source: 0) == .microseconds(24_999))
        #expect(debouncer.held == nil && debouncer.nextDeadline == nil)

        debouncer.hold(release(30_000), source: 0, input: 0, window: .milliseconds(25))
        #expect(debouncer.letGo()?.event == release(30_000))
        #expect(debouncer.letGo() == nil)
    }

    /// The page's Inputs: each input with the device bound to it and when it
    /// was last pressed; a release or a resync is not a use.
    @Test func aRigSaysWhichInputsAreConnectedAndWhenEachWasLastPressed() throws {
        var rig = RigMachine(profile: try load(debounce: nil).get())
        #expect(rig.inputs.map(\.name) == ["pedal"] && rig.inputs[0].device == nil && rig.inputs[0].lastUsed == nil)
        guard case .bound(let source, _) = rig.attach(DeviceIdentity(name: "Pedal")) else {
            Issue.record("the pedal did not bind")
            return
        }
        func key(_ micros: Int64, _ value: Int32, resync: Bool = false) {
            let time = Instant(microseconds: micros)
            _ = rig.handle(
                .event(InputEvent(time: time, type: EventType.key, code: 48, value: value), from: source, resync: resync))
            _ = rig.handle(
                .event(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0), from: source, resync: resync))
        }
        #expect(rig.inputs[0].device == "Pedal" && rig.inputs[0].lastUsed == nil)
        key(1_000_000, 1)
        key(1_100_000, 0)
        key(2_000_000, 1, resync: true)
        #expect(rig.inputs[0].lastUsed == Instant(microseconds: 1_000_000))
    }

    /// As `slate run` and `slate monitor` drive it: the release goes on when
    /// the loop wakes at the machine's deadline, with its own timestamp.
    @Test func aLiveRigLetsTheReleaseGoWhenItsWindowEnds() throws {
        var rig = RigMachine(profile: try load(debounce: nil).get())
        guard case .bound(let source, _) = rig.attach(DeviceIdentity(name: "Pedal")) else {
            Issue.record("the pedal did not bind")
            return
        }
        func key(_ micros: Int64, _ value: Int32) -> [String] {
            let time = Instant(microseconds: micros)
            var effects = rig.handle(
                .event(InputEvent(time: time, type: EventType.key, code: 48, value: value), from: source, resync: false))
            effects += rig.handle(
                .event(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0), from: source, resync: false))
            return lines(effects)
        }
        func lines(_ effects: [RigEffect]) -> [String] {
            effects.compactMap {
                if case .report(let report) = $0 { ReportFormat(origin: Instant(microseconds: 0)).text(report) } else { nil }
            }
        }
        #expect(key(0, 1) == ["    0.000  capture  pedal        KEY_B            primary   began"])
        #expect(key(100_000, 0) == [])
        #expect(rig.nextDeadline == Instant(microseconds: 125_000))
        #expect(lines(rig.handle(.time(Instant(microseconds: 124_999)))) == [])
        #expect(
            lines(rig.handle(.time(Instant(microseconds: 125_000)))) == [
                "    0.100  capture  pedal        KEY_B            primary   ended",
                "    0.100  action   take.toggle            -> started take 1  (pedal KEY_B primary click)",
            ])
        #expect(rig.nextDeadline == nil)
    }

    @Test func aDebouncedLineSaysHowLongTheContactsWereOpen() throws {
        let report = Report.debounced(
            DebounceReport(
                time: Instant(microseconds: 6_000), input: "pedals", code: EventCode(type: EventType.key, code: 48),
                bounce: .microseconds(3_250)))
        let format = ReportFormat(origin: Instant(microseconds: 0))
        #expect(format.text(report) == "    0.006  debounced pedals      KEY_B            bounce 3.25 ms")
        let line = format.json(report)
        #expect(line == #"{"bounce_ms":3.25,"code":"KEY_B","input":"pedals","t":0.006,"type":"debounced"}"#)
        #expect(try JSONDecoder().decode(ReportLine.self, from: Data(line.utf8)) == ReportLine(report, origin: format.origin))
    }
}
