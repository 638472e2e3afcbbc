import Glibc
import SlateCore
import Synchronization

/// Runs a rig's exports on a thread of their own, one after another, so
/// recording never waits for one: a take can start and stop while the takes
/// before it are joined. Each export holds the takes the ledger reserved for it.
/// The thread runs while exports are queued and ends when none is left.
public final class TakeExports: Sendable {
    /// What became of an export.
    public enum Event: Sendable {
        case exported(TakeExporter.Outcome)
        /// Nothing was exported; the `returned` takes are available again.
        case failed(String, returned: Int)
    }

    private struct Job: Sendable {
        var ids: Set<String>
        var options: TakeExporter.Options
        var outputFolder: String
    }

    private struct State {
        var jobs: [Job] = []
        var events: [Event] = []
        /// Whether the export thread is running (a job under way or queued).
        var running = false
        /// The export thread last started, to join.
        var worker: pthread_t?
    }

    private let ledger: TakeLedger
    private let onEvent: @Sendable () -> Void
    private let state = Mutex(State())

    /// `onEvent` is called on the export thread when `takeEvents()` has something.
    public init(ledger: TakeLedger, onEvent: @escaping @Sendable () -> Void) {
        self.ledger = ledger
        self.onEvent = onEvent
    }

    deinit { finish() }

    /// Exports the takes `ids` (reserved in the ledger) into `outputFolder`.
    public func export(_ ids: Set<String>, options: TakeExporter.Options, to outputFolder: String) {
        let ended: pthread_t? = state.withLock { state in
            state.jobs.append(Job(ids: ids, options: options, outputFolder: outputFolder))
            guard !state.running else { return nil }
            let ended = state.worker
            switch BackgroundThread.spawn({ [self] in work() }) {
            case .success(let handle):
                state.running = true
                state.worker = handle
            case .failure(let error):
                state.jobs.removeAll()
                ledger.release(ids)
                state.events.append(.failed("\(error)", returned: ids.count))
                state.worker = nil
            }
            return ended
        }
        // The thread of an earlier export has left its loop; it ends at once.
        if let ended { pthread_join(ended, nil) }
    }

    /// Whether an export is queued or running.
    public var isExporting: Bool { state.withLock { $0.running } }

    /// What happened since the last call.
    public func takeEvents() -> [Event] {
        state.withLock { state in
            defer { state.events.removeAll() }
            return state.events
        }
    }

    /// Waits for the queued exports to end.
    public func finish() {
        let worker: pthread_t? = state.withLock { state in
            defer { state.worker = nil }
            return state.worker
        }
        if let worker { pthread_join(worker, nil) }
    }

    private func work() {
        while let job = nextJob() {
            let event = Self.run(job.ids, ledger: ledger, options: job.options, to: job.outputFolder)
            state.withLock { $0.events.append(event) }
            onEvent()
        }
    }

    /// The next queued job; nil, with the thread marked as ending, when none is left.
    private func nextJob() -> Job? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                state.running = false
                return nil
            }
            return state.jobs.removeFirst()
        }
    }

    /// Exports the takes `ids` of `ledger` and releases them.
    private static func run(_ ids: Set<String>, ledger: TakeLedger, options: TakeExporter.Options, to outputFolder: String) -> Event {
        defer { ledger.release(ids) }
        do {
            return .exported(
                try TakeExporter(ledger: ledger, outputFolder: outputFolder).export(
                    ids: ids, at: WallClock.microseconds(), options: options))
        } catch {
            let returned = ledger.manifest.takes.count { ids.contains($0.id) && $0.isExportable }
            return .failed("\(error)", returned: returned)
        }
    }
}
