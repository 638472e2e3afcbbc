import SlateSystem
import Testing

@Suite struct ThreadOwnerTests {
    /// Runs `body` on a worker thread of its own and waits for it.
    func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
        let result = try Mailbox<T?>(nil)
        let thread = try WorkerThread(name: "slate-test") { result.post { $0 = body() } }
        thread.join()
        return try #require(result.read { $0 })
    }

    @Test func theThreadThatMadeItOwnsItAndNoOtherDoes() throws {
        let owner = ThreadOwner()
        #expect(owner.isCurrent)
        #expect(try onAnotherThread { owner.isCurrent } == false)
    }

    @Test func aThreadThatAdoptsItBecomesItsOnlyOwner() throws {
        let adopted = try onAnotherThread { () -> [Bool] in
            var owner = ThreadOwner()
            owner.adopt()
            return [owner.isCurrent]
        }
        #expect(adopted == [true])
        let moved = try onAnotherThread { () -> ThreadOwner in
            var owner = ThreadOwner()
            owner.adopt()
            return owner
        }
        #expect(!moved.isCurrent, "the thread that adopted it owns it, not this one")
    }
}
