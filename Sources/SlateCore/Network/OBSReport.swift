/// What an OBS answered to a request of this rig's: done, or why not.
public struct OBSReport: Sendable {
    public var time: Instant
    /// The OBS, `ws://127.0.0.1:4455`.
    public var target: String
    public var request: String
    /// nil when OBS did it; else why it did not (refused, not connected, ...).
    public var failure: String?

    public init(time: Instant, target: String, request: String, failure: String?) {
        self.time = time
        self.target = target
        self.request = request
        self.failure = failure
    }

    /// `ws://127.0.0.1:4455 StartRecord: done`, `... StartRecord: failed: ...`.
    var text: String { "\(target) \(request): " + (failure.map { "failed: " + $0 } ?? "done") }

    var fields: ReportLine.OBS { ReportLine.OBS(target: target, request: request, ok: failure == nil, message: failure) }
}
