import Foundation
import Testing

@testable import SlateCore

/// The mqtt section, the rigs and rig actions, the commands' inbox, and what
/// rigs say to each other on the broker.
@Suite struct RigsOnABrokerTests {
    static let inputs = """
        inputs:
          pedal:
            match: {name: "PCsensor FootSwitch"}
            bind: {KEY_B: take.toggle}

        """

    func errors(_ yaml: String) -> [String] {
        switch ProfileLoader.load(Self.inputs + yaml, file: "rig.yaml") {
        case .success: return []
        case .failure(let errors): return errors.diagnostics.map(\.description)
        }
    }

    func load(_ yaml: String) throws -> Profile {
        try ProfileLoader.load(Self.inputs + yaml, file: "rig.yaml").get()
    }

    // MARK: the mqtt section

    @Test func theSectionWithItsDefaults() throws {
        let spec = try #require(try load("mqtt: {broker: mqtt://broker.local, rig: cam-a}").mqtt)
        #expect(spec == MQTTSpec(broker: BrokerAddress(host: "broker.local", port: 1883, tls: false), rig: "cam-a"))
        #expect(spec.startDelay == .milliseconds(150) && spec.keepAlive == .seconds(5) && spec.topicPrefix == "slate")
    }

    @Test func everyKey() throws {
        let spec = try #require(
            try load(
                """
                mqtt:
                  broker: mqtts://[fd00::1]:8884
                  rig: cam-b
                  username: rigs
                  password-file: ~/.config/slate/mqtt-password
                  ca-file: /etc/slate/ca.pem
                  topic-prefix: studio/slate
                  start-delay: 300ms
                  keep-alive: 10s
                """
            ).mqtt)
        #expect(spec.broker == BrokerAddress(host: "fd00::1", port: 8884, tls: true))
        #expect(spec.username == "rigs" && spec.passwordFile == "~/.config/slate/mqtt-password")
        #expect(spec.caFile == "/etc/slate/ca.pem" && spec.topicPrefix == "studio/slate")
        #expect(spec.startDelay == .milliseconds(300) && spec.keepAlive == .seconds(10))
    }

    @Test func brokerAddresses() {
        func parse(_ text: String) -> String {
            switch BrokerAddress.parse(text) {
            case .success(let address): "\(address)"
            case .failure(let error): error.reason
            }
        }
        #expect(parse("mqtt://10.0.0.2") == "mqtt://10.0.0.2:1883")
        #expect(parse("mqtts://broker.local") == "mqtts://broker.local:8883")
        #expect(parse("mqtt://broker.local:1884/") == "mqtt://broker.local:1884")
        #expect(parse("mqtt://[::1]:1883") == "mqtt://[::1]:1883")
        #expect(parse("tcp://broker.local") == "it starts with mqtt:// or mqtts://")
        #expect(parse("mqtt://user:secret@broker.local").contains("a password in password-file"))
        #expect(parse("mqtt://broker.local:0") == "the port is a number from 1 to 65535")
        #expect(parse("mqtt://::1") == "an IPv6 address is written [::1]:1883")
        #expect(parse("mqtt://") == "the host is missing")
    }

    @Test func mistakesAreNamedWithTheirPlace() {
        #expect(
            errors("mqtt: {broker: mqtt://b}") == [
                "rig.yaml:5:7: error: mqtt needs broker (mqtt://HOST[:PORT] or mqtts://HOST[:PORT]) and rig (this rig's name)"
            ])
        #expect(
            errors("mqtt: {broker: http://b, rig: a}") == [
                "rig.yaml:5:16: error: mqtt.broker: 'http://b' is not a broker address: it starts with mqtt:// or mqtts://"
            ])
        #expect(
            errors("mqtt: {broker: mqtt://b, rig: Cam A}").first?.contains("1 to 32 lowercase letters, digits and dashes") == true
        )
        #expect(errors("mqtt: {broker: mqtt://b, rig: all}").first?.contains("'all' names every rig") == true)
        #expect(
            errors("mqtt: {broker: mqtt://b, rig: a, password: hunter2}").first?.contains("unknown key 'password' in mqtt")
                == true)
        #expect(errors("mqtt: {broker: mqtt://b, rig: a, ca-file: ca.pem}").first?.contains("for an mqtts:// broker") == true)
        #expect(errors("mqtt: {broker: mqtt://b, rig: a, topic-prefix: slate/#}").first?.contains("without +, #") == true)
        #expect(errors("mqtt: {broker: mqtt://b, rig: a, start-delay: 10s}").first?.contains("at most 5s") == true)
        #expect(errors("mqtt: {broker: mqtt://b, rig: a, keep-alive: 2s}").first?.contains("from 5s to 600s") == true)
    }

    // MARK: rigs and rig

    @Test func actionsForOtherRigs() throws {
        let profile = try load(
            """
            mqtt: {broker: mqtt://b, rig: cam-a}
            macros:
              sync: [rigs take.start, rig cam-b zoom.set 2, rigs punch-in, rigs control.set Zoom 2]
            """)
        #expect(
            profile.macros["sync"]?.map(\.action) == [
                .rigs(RigsAction(target: .every, text: "take.start")),
                .rigs(RigsAction(target: .rig("cam-b"), text: "zoom.set 2")),
                .rigs(RigsAction(target: .every, text: "punch-in")),
                .rigs(RigsAction(target: .every, text: "control.set Zoom 2")),
            ])
    }

    @Test func actionsForOtherRigsAreChecked() {
        #expect(
            errors("macros: {go: rigs take.start}") == [
                "rig.yaml:5:14: error: rigs needs an mqtt section (the broker the rigs share)"
            ])
        let mqtt = "mqtt: {broker: mqtt://b, rig: cam-a}\n"
        #expect(errors(mqtt + "macros: {go: rigs zoom.set 9}").first?.contains("zoom.set must be within 1 and 6") == true)
        #expect(errors(mqtt + "macros: {go: 'rigs exec [reboot]'}").first?.contains("cannot send exec") == true)
        #expect(errors(mqtt + "macros: {go: rigs rigs take.start}").first?.contains("cannot send rigs") == true)
        #expect(errors(mqtt + "macros: {go: rig cam-b}").first?.contains("rig takes a rig's name and an action") == true)
        #expect(errors(mqtt + "macros: {go: rig Cam-B take.start}").first?.contains("lowercase letters") == true)
    }

    @Test func theHTTPAPIAsksForThemToo() throws {
        let profile = try load("mqtt: {broker: mqtt://b, rig: cam-a}")
        #expect(
            try ActionText.steps("rig cam-c take.stop", in: profile).get().map(\.action) == [
                .rigs(RigsAction(target: .rig("cam-c"), text: "take.stop"))
            ])
    }

    @Test func onlyTakeStartsAndStopsAreTimed() {
        #expect(RigsCommand(target: .every, text: "take.start").isSynchronized)
        #expect(RigsCommand(target: .rig("cam-b"), text: "take.stop").isSynchronized)
        #expect(!RigsCommand(target: .every, text: "zoom.set 2").isSynchronized)
        #expect(RigsCommand(target: .every, text: "take.start").startsTakes)
        #expect(!RigsCommand(target: .every, text: "take.stop").startsTakes)
    }

    // MARK: the commands' inbox

    static let second: Int64 = 1_000_000_000
    static let realtime: Int64 = 1_795_000_000 * second
    let now = Instant(microseconds: 50_000_000)
    let frame = Duration.milliseconds(33)

    func receive(_ inbox: inout CommandInbox, _ command: RigCommandMessage) -> CommandInbox.Arrival {
        inbox.receive(command, now: now, realtimeNs: Self.realtime, frame: frame)
    }

    @Test func aTimedCommandWaitsForItsInstantOnTheMonotonicClock() {
        var inbox = CommandInbox()
        let command = RigCommandMessage(action: "take.start", at: Self.realtime + 150_000_000, id: "a-1", from: "cam-a")
        #expect(receive(&inbox, command) == .scheduled(now + .milliseconds(150)))
        #expect(inbox.nextDeadline == now + .milliseconds(150))
        #expect(inbox.takeDue(at: now + .milliseconds(149)).isEmpty)
        let due = inbox.takeDue(at: now + .milliseconds(150))
        #expect(due.map(\.command) == [command] && due.map(\.due) == [now + .milliseconds(150)])
        #expect(inbox.nextDeadline == nil)
    }

    @Test func anUntimedCommandRunsOnArrivalAndCommandsRunInTimeOrder() {
        var inbox = CommandInbox()
        let later = RigCommandMessage(action: "take.start", at: Self.realtime + 100_000_000, id: "a-1")
        let now = RigCommandMessage(action: "zoom.set 2", id: "a-2")
        #expect(receive(&inbox, later) == .scheduled(self.now + .milliseconds(100)))
        #expect(receive(&inbox, now) == .scheduled(self.now))
        #expect(inbox.takeDue(at: self.now + .seconds(1)).map(\.command.id) == ["a-2", "a-1"])
    }

    @Test func aSecondDeliveryRunsNothing() {
        var inbox = CommandInbox()
        let command = RigCommandMessage(action: "take.start", id: "a-1")
        #expect(receive(&inbox, command) == .scheduled(now))
        #expect(receive(&inbox, command) == .duplicate)
        inbox.remember("a-2")
        #expect(receive(&inbox, RigCommandMessage(action: "take.start", id: "a-2")) == .duplicate)
        #expect(inbox.takeDue(at: now).count == 1)
    }

    @Test func idsAreForgottenOnlyLongAfter() {
        var inbox = CommandInbox()
        for number in 0...CommandInbox.rememberedIDs { inbox.remember("id-\(number)") }
        #expect(receive(&inbox, RigCommandMessage(action: "take.start", id: "id-1")) == .duplicate)
        #expect(receive(&inbox, RigCommandMessage(action: "take.start", id: "id-0")) == .scheduled(now))
    }

    @Test func aStartLateByMoreThanAFrameIsRefused() {
        var inbox = CommandInbox()
        let withinAFrame = RigCommandMessage(action: "take.start", at: Self.realtime - 30_000_000, id: "a-1")
        #expect(receive(&inbox, withinAFrame) == .scheduled(Instant(microseconds: now.microseconds - 30_000)))
        let late = RigCommandMessage(action: "take.start", at: Self.realtime - 40_000_000, id: "a-2")
        #expect(receive(&inbox, late) == .refused("take.start was timed 40 ms ago, more than a frame (33 ms): not run late"))
        let far = RigCommandMessage(action: "take.start", at: Self.realtime + 11 * Self.second, id: "a-3")
        #expect(
            receive(&inbox, far) == .refused("take.start is timed 11000 ms ahead, more than 10000 ms: check the rigs' clocks"))
        let unknown = RigCommandMessage(action: "punch-in", id: "a-4")
        #expect(
            inbox.receive(unknown, now: now, realtimeNs: Self.realtime, frame: frame, problem: "no macro") == .refused("no macro")
        )
        #expect(inbox.takeDue(at: now + .seconds(60)).map(\.command.id) == ["a-1"])
    }

    // MARK: on the broker

    @Test func topics() {
        let topics = RigTopics(prefix: "studio/slate")
        #expect(topics.topic(.state, of: "cam-a") == "studio/slate/cam-a/state")
        #expect(topics.everyRigCommands == "studio/slate/all/cmd")
        #expect(topics.pattern(.events) == "studio/slate/+/events")
        #expect(topics.parse("studio/slate/cam-b/events")! == ("cam-b", .events))
        #expect(topics.parse("studio/slate/cam-b/other") == nil)
        #expect(topics.parse("slate/cam-b/state") == nil)
        #expect(topics.parse("studio/slate/a/b/state") == nil)
    }

    @Test func aCommandAsJSON() throws {
        let text = JSONLine.encode(
            RigCommandMessage(action: "take.start", at: 1_795_000_000_150_000_000, id: "cam-a-1", from: "cam-a"))
        #expect(text == #"{"action":"take.start","at":1795000000150000000,"from":"cam-a","id":"cam-a-1"}"#)
        let sent = try JSONDecoder().decode(RigCommandMessage.self, from: Data(#"{"action":"zoom.set 2","id":"x"}"#.utf8))
        #expect(sent == RigCommandMessage(action: "zoom.set 2", id: "x"))
    }

    @Test func aRigsStateAndItsLastWill() {
        #expect(String(decoding: RigState.offlinePayload, as: UTF8.self) == #"{"online":false}"#)
        var state = RigState(online: true)
        state.recording = true
        state.take = 3
        state.takes = 3
        state.work = "cam-a:/home/ana/Videos/Slate/takes"
        state.camera = RigStatus.CameraEntry(
            name: "testpattern", position: "back", fps: 30, zoom: 1, torch: false, mode: "640x360 raw")
        state.diskFreeBytes = 12_345_000_000
        state.diskSecondsLeft = 7500
        state.clock = ClockSync(synchronized: true, estimatedErrorMicroseconds: 120, maximumErrorMicroseconds: 2500)
        #expect(
            state.text(rig: "cam-a")
                == "cam-a  online  recording take 3  3 takes in cam-a:/home/ana/Videos/Slate/takes  testpattern 30 fps (640x360 raw)  disk 12.3 GB free (2 h 5 min)  clock synchronized, ±120 µs (at most 2.5 ms)"
        )
        state.clock = nil
        state.recording = false
        #expect(state.text(rig: "cam-a").contains("  idle  ") && state.text(rig: "cam-a").hasSuffix("clock unknown"))
        #expect(RigState(online: false).text(rig: "cam-c") == "cam-c  offline")
    }

    @Test func theSpreadOfFirstFrames() {
        let report = RigReport(
            time: now, rig: "cam-a",
            event: .spread(["cam-a": 1_000_012_300_000, "cam-b": 1_000_000_000_000, "cam-c": 1_000_004_150_000], expected: 4))
        #expect(
            report.text == "cam-a: first frames of 3 rigs within 12.3 ms (cam-a +12.3, cam-b +0, cam-c +4.2 ms); 1 did not start")
        let line = ReportLine(.rig(report), origin: now)
        #expect(JSONLine.encode(line).contains(#""event":"spread","first_frames":{"cam-a":12.3,"cam-b":0,"cam-c":4.2}"#))
        #expect(JSONLine.encode(line).contains(#""spread_ms":12.3"#))
    }

    @Test func anotherRigsLineRoundTrips() throws {
        let inner = ReportLine(
            t: 1.25, fields: .take(ReportLine.Take(event: "started", take: 1, realtimeNs: 1_795_000_000_150_000_000)))
        let line = ReportLine(
            .rig(RigReport(time: now, rig: "cam-b", event: .line(text: "take     started take 1", line: inner))), origin: now)
        let decoded = try JSONDecoder().decode(ReportLine.self, from: Data(JSONLine.encode(line).utf8))
        #expect(decoded == line)
        #expect(JSONLine.encode(inner).contains(#""realtime_ns":1795000000150000000"#))
    }

    @Test func theOtherRigsAreTilesWithTheirTallyAndTake() throws {
        let profile = try load("mqtt: {broker: mqtt://broker.local, rig: cam-a}\n")
        var machine = RigNetworkMachine(spec: try #require(profile.mqtt), profile: profile, session: "s1")
        _ = machine.connected()
        let state = { (rig: String, json: String) in
            machine.received(topic: "slate/\(rig)/state", payload: Array(json.utf8), at: Instant(microseconds: 0), realtimeNs: 0)
        }
        _ = state("cam-c", #"{"online":true,"recording":true,"take":4,"tally":"recording"}"#)
        _ = state("cam-b", #"{"online":true,"recording":false}"#)
        _ = state("cam-a", #"{"online":true,"recording":true,"take":9,"tally":"recording"}"#)
        #expect(machine.tiles.map(\.rig) == ["cam-b", "cam-c"])
        #expect(machine.tiles.map(\.tally) == [.standby, .recording])
        #expect(machine.tiles.map(\.take) == [nil, 4])
        // A new state of a rig already online is taken without a second online line.
        #expect(state("cam-c", #"{"online":true,"recording":false,"tally":"error"}"#).isEmpty)
        #expect(machine.tiles[1].tally == .error && machine.tiles[1].take == nil)
        #expect(!state("cam-b", #"{"online":false}"#).isEmpty)
        #expect(machine.tiles[0] == RigStatus.RigTile(rig: "cam-b", state: RigState(online: false)))
        #expect(machine.tiles[0].tally == nil)
        // A state a newer rig names is taken, the tally read from `recording`.
        _ = state("cam-d", #"{"online":true,"recording":true,"tally":"rehearsal"}"#)
        #expect(machine.tiles.last?.rig == "cam-d" && machine.tiles.last?.tally == .recording)
        // `all` is not a rig: a state published there is no tile.
        _ = state("all", #"{"online":true,"recording":true}"#)
        #expect(!machine.tiles.contains { $0.rig == "all" })
        // At most 256 other rigs are tracked, the first seen; the others' states are ignored.
        for number in 0..<300 { _ = state("flood-\(number)", #"{"online":true}"#) }
        #expect(machine.tiles.count == RigTopics.rigLimit)
        #expect(machine.tiles.contains { $0.rig == "cam-d" } && !machine.tiles.contains { $0.rig == "flood-299" })
        // Off the broker, what it last heard may be stale: no tiles.
        _ = machine.disconnected(reason: "gone")
        #expect(machine.tiles.isEmpty)
    }
}
