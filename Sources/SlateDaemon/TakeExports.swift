import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// Runs a rig's exports on a thread of their own, one after another, at a
/// lower priority than recording, so recording never waits for one: a take can
/// start, record and stop while the takes before it are joined. Each export
/// holds the takes the ledger reserved for it, and tells how far it has got
/// at the pace `ExportProgressPace` sets.
public final class TakeExports: Sendable {
    /// What became of an export.
    public enum Event: Sendable {
        /// The export under way got this far.
        case progress(ExportProgress)
        case exported(TakeExporter.Outcome)
        /// Nothing was exported; the `returned` takes are available again.
        case failed(String, returned: Int)
    }

    fileprivate struct Job: Sendable {
        var ids: Set<String>
        var options: TakeExporter.Options
        var outputFolder: String
    }

    /// What the export thread is sent.
    fileprivate struct Inbox: Sendable {
        var jobs: [Job] = []
        /// Whether an export is under way.
        var busy = false
        var stopping = false
    }

    /// The export thread's nice value: behind the camera, the take pipeline and its encoder.
    static let niceness: Int32 = 10

    private let ledger: TakeLedger
    private let inbox: Mailbox<Inbox>
    private let events: Mailbox<[Event]>
    private let thread: WorkerThread
    private let clock: any RigClock

    /// `onEvent` is called on the export thread when `takeEvents()` has
    /// something. Exports pace their progress on `clock`, without taking part
    /// in its time: an export is waited for, not timed.
    public init(ledger: TakeLedger, clock: any RigClock = SystemClock(), onEvent: @escaping @Sendable () -> Void)
        throws(OperationError)
    {
        self.ledger = ledger
        self.clock = clock
        let inbox = try Mailbox(Inbox())
        let events = try Mailbox<[Event]>()
        (self.inbox, self.events) = (inbox, events)
        thread = try WorkerThread(name: "slate-export", niceness: Self.niceness) {
            Self.work(inbox: inbox, ledger: ledger, clock: clock) { event in
                events.post(event)
                onEvent()
            }
        }
    }

    deinit {
        inbox.post { $0.stopping = true }
        thread.join()
    }

    /// Exports the takes `ids` (reserved in the ledger) into `outputFolder`.
    public func export(_ ids: Set<String>, options: TakeExporter.Options, to outputFolder: String) {
        guard !ids.isEmpty else { return }
        inbox.post { $0.jobs.append(Job(ids: ids, options: options, outputFolder: outputFolder)) }
    }

    /// Whether an export is queued or running.
    public var isExporting: Bool { inbox.read { $0.busy || !$0.jobs.isEmpty } }

    /// What happened since the last call.
    public func takeEvents() -> [Event] { events.letters() }

    /// Waits until `takeEvents()` has something or `milliseconds` pass.
    public func waitForEvents(milliseconds: Int32) {
        clock.wait(for: events, until: clock.now() + .milliseconds(milliseconds))
    }

    /// The export thread: one job at a time until stopped.
    private static func work(inbox: Mailbox<Inbox>, ledger: TakeLedger, clock: any RigClock, report: (Event) -> Void) {
        while true {
            let (job, stopping): (Job?, Bool) = inbox.collect { inbox in
                let job = inbox.jobs.isEmpty ? nil : inbox.jobs.removeFirst()
                inbox.busy = job != nil
                return (job, inbox.stopping)
            }
            if let job {
                let outcome = run(job.ids, ledger: ledger, options: job.options, to: job.outputFolder, clock: clock) {
                    report(.progress($0))
                }
                report(outcome)
                // The export's codecs and buffers were freed: give their memory back.
                HeapMemory.returnFreed()
                inbox.post { $0.busy = false }
            } else if stopping {
                return
            } else {
                inbox.wait()
            }
        }
    }

    /// Exports the takes `ids` of `ledger` and releases them; `progress` is
    /// told how far it has got, at the pace `ExportProgressPace` sets.
    private static func run(
        _ ids: Set<String>, ledger: TakeLedger, options: TakeExporter.Options, to outputFolder: String,
        clock: any RigClock, progress: (ExportProgress) -> Void
    ) -> Event {
        defer { ledger.release(ids) }
        var pace = ExportProgressPace(start: clock.now())
        do {
            return .exported(
                try TakeExporter(ledger: ledger, outputFolder: outputFolder).export(
                    ids: ids, at: WallClock.microseconds(), options: options
                ) { written in
                    if pace.report(written, at: clock.now()) { progress(written) }
                })
        } catch {
            let returned = ledger.manifest.takes.count { ids.contains($0.id) && $0.isExportable }
            return .failed("\(error)", returned: returned)
        }
    }
}
