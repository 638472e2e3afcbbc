import Foundation
import SlateCore
import SlateSystem
import SlateWeb
import Testing

/// The page's connections against clients that hold them: half-sent heads,
/// slow bodies, idle keep-alives and floods, each budget tested at its edge
/// with timeouts shortened for the test.
extension RigServerTests {
    /// Short timeouts, `connections` of them.
    static func budgets(
        connections: Int = 16, streams: Int? = nil, stall: Duration = .seconds(30),
        head: Duration = .seconds(1)
    ) -> PageBudgets {
        PageBudgets(
            connections: connections, streams: streams, stall: stall, head: head,
            body: .seconds(1), idle: .milliseconds(500), linger: .milliseconds(500))
    }

    /// Seconds since `start`.
    static func since(_ start: Instant) -> Double { (MonotonicClock.now() - start).inSeconds() }

    @Test func thePageTakesAQuarterOfTheDescriptorsAtMost256() {
        #expect(PageBudgets.connectionCap(descriptors: 1024) == 256)
        #expect(PageBudgets.connectionCap(descriptors: 524_288) == 256)
        #expect(PageBudgets.connectionCap(descriptors: 400) == 100)
        #expect(PageBudgets.connectionCap(descriptors: 20) == 8)
        let shipped = PageBudgets(descriptors: 1024)
        #expect(shipped.head == .seconds(10) && shipped.body == .seconds(10) && shipped.idle == .seconds(5))
        #expect(shipped.streams == 128 && shipped.stall == .seconds(30))
        #expect(PageBudgets(descriptors: 20).streams == 4)
    }

    @Test func aHeadDribbledAByteAtATimeIsCutAtTheHeadTimeout() async throws {
        let (server, board) = try await serving(budgets: Self.budgets())
        let port = server.address.port
        let (text, closed, after) = try await onThread { () -> (String, Bool, Double) in
            let start = MonotonicClock.now()
            let client = RawConnection(port: port)
            client.send("GET /status.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            while !client.closed && Self.since(start) < 5 {
                client.send("a")
                client.read(for: .milliseconds(100))
            }
            return (client.text, client.closed, Self.since(start))
        }
        #expect(closed && after > 0.9 && after < 2, "closed \(closed) after \(after) s")
        #expect(text.hasPrefix("HTTP/1.1 408 ") && text.contains("the request's head did not arrive within 1 s"), "\(text)")
        try await stop(server, board)
    }

    @Test func aConnectionThatSendsNothingIsCutAtTheHeadTimeout() async throws {
        let (server, board) = try await serving(budgets: Self.budgets())
        let port = server.address.port
        let (closed, after) = try await onThread { () -> (Bool, Double) in
            let start = MonotonicClock.now()
            let client = RawConnection(port: port)
            let closedEarly = client.read(for: .milliseconds(800))
            return (!closedEarly && client.read(for: .seconds(2)), Self.since(start))
        }
        #expect(closed && after < 2, "closed \(closed) after \(after) s")
        try await stop(server, board)
    }

    @Test func aKeptAliveConnectionServesAgainThenClosesWhenIdle() async throws {
        // An idle time long beside a loaded machine's delays, so that "not closed early" holds in a full run.
        var budgets = Self.budgets()
        budgets.idle = .seconds(2)
        let (server, board) = try await serving(budgets: budgets)
        let port = server.address.port
        let (answers, closedEarly, closed, idle) = try await onThread { () -> (Int, Bool, Bool, Double) in
            let client = RawConnection(port: port)
            client.get("/status.json")
            client.read(for: .seconds(2)) { RawConnection.hasResponse($0) }
            // Within the idle time, the connection serves the next request.
            Thread.sleep(forTimeInterval: 0.3)
            client.get("/status.json")
            client.read(for: .seconds(2)) { $0.components(separatedBy: "HTTP/1.1 503 ").count == 3 && $0.hasSuffix("}\n") }
            let answered = MonotonicClock.now()
            let closedEarly = client.read(for: .milliseconds(1000))
            return (
                client.text.components(separatedBy: "HTTP/1.1 503 ").count - 1, closedEarly, client.read(for: .seconds(8)),
                Self.since(answered)
            )
        }
        #expect(answers == 2)
        #expect(!closedEarly && closed && idle < 6, "closed \(closed) \(idle) s after the response")
        try await stop(server, board)
    }

    @Test func aDeclaredBodyMustArriveWithinTheBodyTimeout() async throws {
        let (server, board) = try await serving(budgets: Self.budgets(head: .seconds(5)))
        let port = server.address.port
        let (text, closed, after) = try await onThread { () -> (String, Bool, Double) in
            let client = RawConnection(port: port)
            client.send(
                "POST /actions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.token)\r\nContent-Length: 100\r\n\r\n{\"action\""
            )
            let start = MonotonicClock.now()
            let closed = client.read(for: .seconds(4))
            return (client.text, closed, Self.since(start))
        }
        #expect(closed && after > 0.9 && after < 2, "closed \(closed) after \(after) s")
        #expect(text.hasPrefix("HTTP/1.1 408 ") && text.contains("the request's body did not arrive within 1 s"), "\(text)")
        try await stop(server, board)
    }

    @Test func aBodyLargerThanAnyRouteReadsIsRefusedAtOnceAndNotAwaited() async throws {
        // The shipped timeouts: the refusal cannot be one of them.
        let (server, board) = try await serving()
        let port = server.address.port
        for (request, auth) in [
            ("POST /actions", "Authorization: Bearer \(Self.token)\r\n"), ("POST /actions", ""), ("GET /status.json", ""),
        ] {
            let (text, answeredIn, closed) = try await onThread { () -> (String, Double, Bool) in
                let client = RawConnection(port: port)
                let start = MonotonicClock.now()
                client.send("\(request) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(auth)Content-Length: 10000000000\r\n\r\n")
                client.read(for: .seconds(2)) { RawConnection.hasResponse($0) }
                let answeredIn = Self.since(start)
                return (client.text, answeredIn, client.read(for: .seconds(3)))
            }
            #expect(text.hasPrefix("HTTP/1.1 413 ") && text.contains("over 4096 bytes"), "\(request): \(text)")
            #expect(answeredIn < 0.5 && closed, "\(request): answered in \(answeredIn) s, closed \(closed)")
        }
        try await stop(server, board)
    }

    @Test func eventStreamsAndThePreviewOutliveEveryTimeout() async throws {
        let preview = PreviewFeed()
        let (server, board) = try await serving(preview: preview, budgets: Self.budgets(head: .milliseconds(300)))
        let feeder = Task {
            while !Task.isCancelled {
                if preview.isWatched { preview.publish([0xFF, 0xD8, 0x01, 0xFF, 0xD9]) }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { feeder.cancel() }
        let port = server.address.port
        let (eventsOpen, picturesOpen, tail) = try await onThread { () -> (Bool, Bool, String) in
            let events = RawConnection(port: port)
            events.get("/events")
            events.read(for: .seconds(2)) { $0.contains("retry: 1000") }
            let pictures = RawConnection(port: port)
            pictures.get("/preview.mjpg")
            pictures.read(for: .seconds(2)) { $0.contains("image/jpeg\r\nContent-Length: 5") }
            // Past the head, body and idle timeouts, several times over.
            Thread.sleep(forTimeInterval: 2)
            board.publish(StatusBoardTests.line(7))
            events.read(for: .seconds(2)) { $0.contains(#""t":7"#) }
            let before = pictures.received.count
            pictures.read(for: .seconds(2)) { _ in pictures.received.count > before + 200 }
            return (
                !events.closed && events.text.contains(#""t":7"#), !pictures.closed && pictures.received.count > before + 200,
                String(events.text.suffix(200))
            )
        }
        #expect(eventsOpen, "\(tail)")
        #expect(picturesOpen)
        try await stop(server, board, preview: preview)
    }

    @Test func atTheCapTheConnectionWaitingLongestMakesRoom() async throws {
        let (server, board) = try await serving(budgets: Self.budgets(connections: 4, head: .seconds(30)))
        let port = server.address.port
        let (oldestClosed, othersOpen, answer, servedIn) = try await onThread { () -> (Bool, Bool, Int?, Double) in
            let waiting = (0..<4).map { _ in
                let client = RawConnection(port: port)
                client.send("GET /status.json HTTP/1.1\r\nHo")
                Thread.sleep(forTimeInterval: 0.05)
                return client
            }
            let start = MonotonicClock.now()
            let client = RawConnection(port: port)
            client.get("/status.json")
            client.read(for: .seconds(3)) { RawConnection.hasResponse($0) }
            let servedIn = Self.since(start)
            let oldestClosed = waiting[0].read(for: .seconds(1))
            let othersOpen = waiting.dropFirst().allSatisfy { !$0.read(for: .milliseconds(100)) }
            return (oldestClosed, othersOpen, client.status, servedIn)
        }
        #expect(answer == 503 && servedIn < 1, "\(answer ?? 0) in \(servedIn) s")
        #expect(oldestClosed && othersOpen)
        try await stop(server, board)
    }

    @Test func atTheCapWithEveryConnectionStreamingANewOneIsRefusedAndTheStreamsGoOn() async throws {
        let (server, board) = try await serving(budgets: Self.budgets(connections: 2, streams: 2))
        let port = server.address.port
        let (refused, going) = try await onThread { () -> (String, Bool) in
            let streams = (0..<2).map { _ in
                let stream = RawConnection(port: port)
                stream.get("/events")
                stream.read(for: .seconds(2)) { $0.contains("retry: 1000") }
                return stream
            }
            let client = RawConnection(port: port)
            client.get("/status.json")
            client.read(for: .seconds(2))
            board.publish(StatusBoardTests.line(9))
            let going = streams.allSatisfy { stream in
                !stream.read(for: .seconds(2)) { $0.contains(#""t":9"#) } && stream.text.contains(#""t":9"#)
            }
            return (client.text, going)
        }
        #expect(refused.hasPrefix("HTTP/1.1 503 ") && refused.contains("each busy with a response"), "\(refused)")
        #expect(going)
        try await stop(server, board)
    }

    @Test func underAFloodOfHalfSentConnectionsANewClientIsServedAtOnce() async throws {
        let (server, board) = try await serving(budgets: Self.budgets(connections: 32, head: .seconds(30)))
        let port = server.address.port
        let (servedIn, status, cut) = try await onThread { () -> ([Double], [Int?], Int) in
            var hostile: [RawConnection] = []
            var servedIn: [Double] = []
            var status: [Int?] = []
            for round in 0..<5 {
                for _ in 0..<100 {
                    let client = RawConnection(port: port)
                    client.send("GET / HTTP/1.1\r\nHost: 127.0")
                    hostile.append(client)
                }
                let start = MonotonicClock.now()
                let client = RawConnection(port: port)
                client.get("/status.json", headers: "X-Round: \(round)\r\n")
                client.read(for: .seconds(5)) { RawConnection.hasResponse($0) }
                servedIn.append(Self.since(start))
                status.append(client.status)
            }
            let cut = hostile.filter { $0.read(for: .milliseconds(5)) }.count
            return (servedIn, status, cut)
        }
        #expect(status.allSatisfy { $0 == 503 }, "\(status)")
        #expect(servedIn.allSatisfy { $0 < 1 }, "\(servedIn)")
        // 500 arrived; the page kept at most 32 open.
        #expect(cut >= 500 - 32, "\(cut) of 500 closed")
        try await stop(server, board)
    }

    /// Opens a stream of `path`, read until its head arrived.
    static func stream(port: Int, _ path: String = "/events") -> RawConnection {
        let stream = RawConnection(port: port)
        stream.get(path)
        stream.read(for: .seconds(2)) { $0.contains("\r\n\r\n") }
        return stream
    }

    @Test func streamsTakeHalfTheConnectionsAtMostAndRequestsAreServedBeside() async throws {
        let preview = PreviewFeed()
        let (server, board) = try await serving(preview: preview, budgets: Self.budgets(connections: 6))
        let port = server.address.port
        let (streams, refused, status, going, reopened) = try await onThread {
            () -> ([Int?], String, [Int?], Bool, Int?) in
            let streams = [Self.stream(port: port), Self.stream(port: port, "/preview.mjpg"), Self.stream(port: port)]
            let refused = Self.stream(port: port, "/preview.mjpg?again")
            let status = (0..<3).map { _ in
                let client = RawConnection(port: port)
                client.get("/status.json")
                client.read(for: .seconds(2)) { RawConnection.hasResponse($0) }
                return client.status
            }
            board.publish(StatusBoardTests.line(11))
            let going = [streams[0], streams[2]].allSatisfy { stream in
                !stream.read(for: .seconds(2)) { $0.contains(#""t":11"#) } && stream.text.contains(#""t":11"#)
            }
            streams[0].close()
            Thread.sleep(forTimeInterval: 0.3)
            let reopened = Self.stream(port: port)
            return (streams.map(\.status), refused.text, status, going, reopened.status)
        }
        #expect(streams == [200, 200, 200])
        #expect(
            refused.hasPrefix("HTTP/1.1 503 ") && refused.contains("the page has its 3 streams (events, previews) open"),
            "\(refused)")
        // The status answers 503 while the rig starts: what matters is that it is answered.
        #expect(status.allSatisfy { $0 == 503 }, "\(status)")
        #expect(going)
        #expect(reopened == 200)
        try await stop(server, board, preview: preview)
    }

    @Test func aStreamWhoseClientStopsReadingIsClosedAfterTheStallTimeout() async throws {
        let preview = PreviewFeed()
        let (server, board) = try await serving(preview: preview, budgets: Self.budgets(stall: .seconds(1)))
        // Large pictures, fast: the stalled client's buffers fill within a second or two.
        let picture = [0xFF, 0xD8] + [UInt8](repeating: 0x55, count: 256 * 1024) + [0xFF, 0xD9]
        let feeder = Task {
            while !Task.isCancelled {
                if preview.isWatched { preview.publish(picture) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { feeder.cancel() }
        let port = server.address.port
        let (watchersWhileStalled, cutAfter, reader) = try await onThread { () -> (Int, Double, Bool) in
            let start = MonotonicClock.now()
            let stalled = RawConnection(port: port, receiveBuffer: 4096)
            stalled.get("/preview.mjpg")
            let reading = RawConnection(port: port)
            reading.get("/preview.mjpg")
            var watchers = 2
            while Self.since(start) < 15 && watchers == 2 {
                reading.read(for: .milliseconds(100))
                watchers = preview.watcherCount
            }
            let cutAfter = Self.since(start)
            let before = reading.received.count
            reading.read(for: .seconds(1)) { _ in reading.received.count > before + 512 * 1024 }
            return (watchers, cutAfter, !reading.closed && reading.received.count > before + 512 * 1024)
        }
        #expect(
            watchersWhileStalled == 1 && cutAfter > 1 && cutAfter < 10, "\(watchersWhileStalled) watching after \(cutAfter) s")
        #expect(reader, "the client that reads goes on")
        try await stop(server, board, preview: preview)
    }
}
