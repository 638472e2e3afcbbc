import Glibc
import SlateCore

/// Runs a rig's exports on a thread of their own, one after another, so
/// recording never waits for one: a take can start and stop while the takes
/// before it are joined. Each export holds the takes the ledger reserved for it.
public final class TakeExports: @unchecked Sendable {
    /// What became of an export.
    public enum Event: Sendable {
        case exported(TakeExporter.Outcome)
        /// Nothing was exported; the `returned` takes are available again.
        case failed(String, returned: Int)
    }

    private struct Job {
        var ids: Set<String>
        var options: TakeExporter.Options
        var outputFolder: String
    }

    private let ledger: TakeLedger
    private let onEvent: @Sendable () -> Void
    private let shared = Monitor()
    private var jobs: [Job] = []
    private var events: [Event] = []
    private var stopping = false
    private var busy = false
    private var thread: pthread_t?

    /// `onEvent` is called on the export thread when `takeEvents()` has something.
    public init(ledger: TakeLedger, onEvent: @escaping @Sendable () -> Void) {
        self.ledger = ledger
        self.onEvent = onEvent
    }

    deinit { finish() }

    /// Exports the takes `ids` (reserved in the ledger) into `outputFolder`.
    public func export(_ ids: Set<String>, options: TakeExporter.Options, to outputFolder: String) {
        shared.locked {
            jobs.append(Job(ids: ids, options: options, outputFolder: outputFolder))
            if thread == nil, case .success(let handle) = BackgroundThread.spawn({ [self] in work() }) { thread = handle }
            shared.broadcast()
        }
    }

    /// Whether an export is queued or running.
    public var isExporting: Bool { shared.locked { busy || !jobs.isEmpty } }

    /// What happened since the last call.
    public func takeEvents() -> [Event] {
        shared.locked {
            defer { events.removeAll() }
            return events
        }
    }

    /// Waits for the queued exports to end, then stops the thread.
    public func finish() {
        let joining: pthread_t? = shared.locked {
            stopping = true
            shared.broadcast()
            defer { thread = nil }
            return thread
        }
        if let joining { pthread_join(joining, nil) }
    }

    private func work() {
        while let job = nextJob() {
            let event = Self.run(job.ids, ledger: ledger, options: job.options, to: job.outputFolder)
            shared.locked {
                events.append(event)
                busy = false
            }
            onEvent()
        }
    }

    private func nextJob() -> Job? {
        shared.locked {
            while jobs.isEmpty && !stopping { shared.wait() }
            guard !jobs.isEmpty else { return nil }
            busy = true
            return jobs.removeFirst()
        }
    }

    /// Exports the takes `ids` of `ledger` and releases them.
    private static func run(_ ids: Set<String>, ledger: TakeLedger, options: TakeExporter.Options, to outputFolder: String) -> Event {
        defer { ledger.release(ids) }
        do {
            try FileWriting.makeFolders(outputFolder)
            return .exported(
                try TakeExporter(ledger: ledger, outputFolder: outputFolder).export(
                    ids: ids, at: WallClock.microseconds(), options: options))
        } catch {
            let returned = ledger.manifest.takes.count { ids.contains($0.id) && $0.isExportable }
            return .failed("\(error)", returned: returned)
        }
    }
}
