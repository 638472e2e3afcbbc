import Foundation
import SlateCore
import SlateSystem
import SlateWeb
import Synchronization
import Testing

/// What the daemon and the page server share.
@Suite struct StatusBoardTests {
    static func status(recording: Bool = false, takes: Int = 0) -> RigStatus {
        RigStatus(
            recording: recording, take: nil,
            takes: (0..<takes).map {
                .init(
                    number: $0 + 1, file: "take-20261121-103841-000\($0 + 1).mp4",
                    summary: TakeSummary(duration: .seconds(1), frames: 30),
                    thumbnail: nil)
            },
            camera: nil, filter: "none", controls: ControlsEntry(shown: "hidden", current: 0, highlight: nil, items: []),
            disk: nil, export: nil, sound: nil)
    }

    static func line(_ t: Double) -> ReportLine {
        try! JSONDecoder().decode(ReportLine.self, from: Data(#"{"t":\#(t),"type":"sound","sound":"shutter"}"#.utf8))
    }

    /// How many times the board woke the daemon.
    final class Wakes: Sendable {
        let count = Mutex(0)
    }

    let board: StatusBoard
    let wakes = Wakes()

    init() {
        let wakes = self.wakes
        board = StatusBoard(origin: MonotonicClock.now()) { wakes.count.withLock { $0 += 1 } }
    }

    /// Waits until an action was handed in.
    func untilWoken() async {
        while wakes.count.withLock({ $0 }) == 0 { await Task.yield() }
    }

    @Test func aNewClientGetsTheStatusAndTheRecentLinesThenWhatChanges() async {
        board.publish(Self.status(), thumbnails: [:])
        for t in 0..<60 { board.publish(Self.line(Double(t))) }
        let stream = board.subscribe()
        #expect(board.clientCount == 1)
        board.publish(Self.status(), thumbnails: [:])
        board.publish(Self.status(recording: true), thumbnails: [:])
        board.close()
        var events: [StatusBoard.Event] = []
        for await event in stream { events.append(event) }
        #expect(events.map(\.name) == ["status"] + Array(repeating: "line", count: StatusBoard.backlogLimit) + ["status"])
        #expect(events[1].data.contains(#""t":10,"#), "the oldest lines beyond the backlog are dropped")
        #expect(events.last!.data.contains(#""recording":true"#))
        #expect(board.clientCount == 0)
    }

    @Test func theSoundLevelGoesToClientsAndIsKeptForNone() async {
        var level = AudioLevel(samples: [16384, -16384, 0, 0], channels: 2)
        level.add(AudioLevel(samples: [32767, 0], channels: 2))
        let stream = board.subscribe()
        board.publish(meter: MeterReading(level))
        board.close()
        var events: [StatusBoard.Event] = []
        for await event in stream { events.append(event) }
        #expect(events.map(\.name) == ["meter"])
        #expect(
            events.first?.data
                == #"{"channels":[{"clipped":1,"label":"L","peak":0,"rms":-3.8},{"clipped":0,"label":"R","peak":-6,"rms":-10.8}]}"#
        )
        let late = board.subscribe()
        for await event in late { Issue.record("a client joining later got \(event)") }
    }

    @Test func aHeartbeatCarriesTheStatusClockToTheMillisecondAndIsKeptForNone() async throws {
        let board = StatusBoard(origin: MonotonicClock.now() + .seconds(-5)) {}
        let stream = board.subscribe()
        board.publishHeartbeat()
        board.close()
        var events: [StatusBoard.Event] = []
        for await event in stream { events.append(event) }
        #expect(events.map(\.name) == ["heartbeat"])
        let data = try #require(events.first?.data)
        let now = try #require(Double(data.dropFirst(#"{"now":"#.count).dropLast()))
        #expect(data.hasPrefix(#"{"now":"#) && (5.0..<6.0).contains(now) && (now * 1000).rounded() == now * 1000, "\(data)")
        let late = board.subscribe()
        for await event in late { Issue.record("a client joining later got \(event)") }
    }

    @Test func theStatusIsStampedWithTheLinesClock() throws {
        let start = MonotonicClock.now() + .seconds(-5)
        let board = StatusBoard(origin: start) {}
        board.publish(Self.status(), thumbnails: [3: "/tmp/x.jpg"])
        let now = try #require(board.status?.now)
        #expect(now >= 5 && now < 60)
        #expect(board.thumbnail(ofTake: 3) == "/tmp/x.jpg" && board.thumbnail(ofTake: 1) == nil)
    }

    @Test func aClientThatFallsBehindLosesItsOldestEventsNotTheRig() async {
        let stream = board.subscribe()
        for t in 0..<(StatusBoard.clientBuffer * 3) { board.publish(Self.line(Double(t))) }
        board.close()
        var count = 0
        var first: String?
        for await event in stream {
            count += 1
            first = first ?? event.data
        }
        #expect(count == StatusBoard.clientBuffer)
        #expect(first?.contains(#""t":\#(StatusBoard.clientBuffer * 2),"#) == true)
    }

    @Test func actionsWaitForTheDaemonsAnswer() async {
        async let answer = board.ask("take.toggle")
        await untilWoken()
        let requests = board.takeRequests()
        #expect(requests.map(\.action) == ["take.toggle"])
        #expect(wakes.count.withLock { $0 } == 1)
        requests[0].answer(.ran([Self.line(1)]))
        #expect(await answer == .ran([Self.line(1)]))
        #expect(board.takeRequests().isEmpty)
    }

    @Test func afterCloseActionsAreRefusedAndStreamsEndAtOnce() async {
        async let waiting = board.ask("take.toggle")
        await untilWoken()
        board.close()
        #expect(await waiting == .refused("slate run is stopping"))
        #expect(await board.ask("take.toggle") == .refused("slate run is stopping"))
        var events = 0
        for await _ in board.subscribe() { events += 1 }
        #expect(events == 0)
    }
}
