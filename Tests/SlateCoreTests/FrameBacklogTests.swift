import Testing

@testable import SlateCore

@Suite struct FrameBacklogTests {
    static func at(_ milliseconds: Int64) -> Instant { Instant(microseconds: milliseconds * 1000) }

    @Test func aFullBacklogDropsTheOldestFrame() {
        var backlog = FrameBacklog<Int>(capacity: 3)
        for frame in 0..<5 { backlog.push(frame, at: Self.at(Int64(frame) * 33)) }
        #expect(backlog.items.map(\.item) == [2, 3, 4])
        #expect(backlog.dropped == 2)
        #expect(backlog.pop()?.item == 2)
    }

    @Test func theFirstFrameOfATakeIsNeverDropped() {
        var backlog = FrameBacklog<Int>(capacity: 3)
        backlog.protect(from: Self.at(40))
        for frame in 0..<8 { backlog.push(frame, at: Self.at(Int64(frame) * 33)) }
        // Frame 2 (66 ms) is the first at or after 40 ms: it stays, the others age out.
        #expect(backlog.items.map(\.item) == [2, 6, 7])
        #expect(backlog.dropped == 5)
        #expect(backlog.pop()?.item == 2)
        // Handed out, it no longer needs keeping.
        for frame in 8..<10 { backlog.push(frame, at: Self.at(Int64(frame) * 33)) }
        #expect(backlog.items.map(\.item) == [7, 8, 9])
    }

    @Test func aStartAfterEveryFrameProtectsTheNextOneToCome() {
        var backlog = FrameBacklog<Int>(capacity: 2)
        backlog.push(0, at: Self.at(0))
        backlog.push(1, at: Self.at(33))
        backlog.protect(from: Self.at(50))
        for frame in 2..<6 { backlog.push(frame, at: Self.at(Int64(frame) * 33)) }
        #expect(backlog.items.map(\.item) == [2, 5])
    }

    @Test func aPinnedItemIsNeverDroppedAndTakesNoRoom() {
        var backlog = FrameBacklog<Int>(capacity: 2)
        backlog.push(0, at: Self.at(0))
        backlog.push(-1, at: Self.at(10), pinned: true)
        for frame in 1..<5 { backlog.push(frame, at: Self.at(Int64(frame) * 33)) }
        #expect(backlog.items.map(\.item) == [-1, 3, 4])
        #expect(backlog.dropped == 3)
        backlog.protect(from: Self.at(5))
        #expect(backlog.pop()?.item == -1)
        backlog.push(5, at: Self.at(165))
        #expect(backlog.items.map(\.item) == [3, 5], "popping the pinned item kept the start's frame protected")
    }
}
