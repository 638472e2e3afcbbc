/// What an OBS answered to a request of this rig's: done, or why not.
public struct OBSReport: Sendable {
    public var time: Instant
    /// The OBS, `ws://127.0.0.1:4455`.
    public var target: String
    public var request: String
    /// nil when OBS did it; else why it did not (refused, not connected, ...),
    /// in at most `failureLimit` characters: an OBS's words come from outside.
    public var failure: String?

    /// The most characters of an OBS's reason kept.
    public static let failureLimit = 300

    public init(time: Instant, target: String, request: String, failure: String?) {
        self.time = time
        self.target = target
        self.request = request
        self.failure = failure.map { reason in
            reason.unicodeScalars.count <= Self.failureLimit
                ? reason : String(String.UnicodeScalarView(reason.unicodeScalars.prefix(Self.failureLimit))) + "..."
        }
    }

    /// `ws://127.0.0.1:4455 StartRecord: done`, `... StartRecord: failed: ...`.
    var text: String { "\(target) \(request): " + (failure.map { "failed: " + $0 } ?? "done") }

    var fields: ReportLine.OBS { ReportLine.OBS(target: target, request: request, ok: failure == nil, message: failure) }
}
