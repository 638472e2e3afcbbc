/// Why a request to OBS failed or a connection to it ended. Every description
/// names the target, as in "OBS at ws://127.0.0.1:4455 is not connected: …".
public enum OBSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection or the websocket upgrade failed.
    case unreachable(url: String, reason: String)
    /// OBS wants a password and the link has none.
    case passwordRequired(url: String)
    /// OBS refused the password: it closed with 4009 AuthenticationFailed.
    case authenticationFailed(url: String)
    /// OBS closed the connection with this code (nil: the connection dropped without one).
    case closed(url: String, code: Int?, reason: String?)
    /// OBS sent something that is not obs-websocket's protocol, or not in its order.
    case protocolError(url: String, detail: String)
    /// OBS did not answer within the link's request timeout.
    case timedOut(url: String, requestType: String, after: Duration)
    /// The connection ended before OBS answered.
    indirect case connectionLost(url: String, requestType: String, because: OBSError)
    /// The request was made while the link was not connected; `because` is how the
    /// last connection or attempt ended (nil: the first attempt is still under way).
    indirect case notConnected(url: String, because: OBSError?)
    /// The link was stopped.
    case stopped(url: String)

    /// obs-websocket's WebSocketCloseCode names.
    static let closeCodeNames = [
        4000: "UnknownReason", 4002: "MessageDecodeError", 4003: "MissingDataField", 4004: "InvalidDataFieldType",
        4005: "InvalidDataFieldValue", 4006: "UnknownOpCode", 4007: "NotIdentified", 4008: "AlreadyIdentified",
        4009: "AuthenticationFailed", 4010: "UnsupportedRpcVersion", 4011: "SessionInvalidated",
        4012: "UnsupportedFeature",
    ]

    /// The target the error is about.
    public var url: String {
        switch self {
        case .unreachable(let url, _), .passwordRequired(let url), .authenticationFailed(let url),
            .closed(let url, _, _), .protocolError(let url, _),
            .timedOut(let url, _, _), .connectionLost(let url, _, _), .notConnected(let url, _), .stopped(let url):
            url
        }
    }

    public var description: String { "OBS at \(url) \(reason)" }

    /// The description without "OBS at URL".
    var reason: String {
        switch self {
        case .unreachable(_, let reason):
            "cannot be reached: \(reason)"
        case .passwordRequired:
            "asks for a password and none was given"
        case .authenticationFailed:
            "refused the password (it closed with 4009 AuthenticationFailed)"
        case .closed(_, let code?, let reason):
            "closed the connection with \(code)"
                + (Self.closeCodeNames[code].map { " \($0)" } ?? "")
                + (reason.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? "")
        case .closed(_, nil, let reason):
            "closed the connection" + (reason.map { ": \($0)" } ?? "")
        case .protocolError(_, let detail):
            "does not speak obs-websocket 5: \(detail)"
        case .timedOut(_, let requestType, let after):
            "did not answer \(requestType) within \(after)"
        case .connectionLost(_, let requestType, let because):
            "went away before answering \(requestType): it \(because.reason)"
        case .notConnected(_, let because?):
            "is not connected: it \(because.reason)"
        case .notConnected(_, nil):
            "is not connected yet"
        case .stopped:
            "is no longer linked: the link was stopped"
        }
    }
}
