import FoundationEssentials
import SlateCore

/// A message of obs-websocket's protocol (version 5, rpcVersion 1), the object
/// `{"op": N, "d": {...}}` in a text frame. Only the messages Slate uses have cases.
public enum OBSMessage: Sendable, Equatable, Codable {
    /// op 0, from OBS as soon as a client connects.
    case hello(Hello)
    /// op 1, the client's answer to Hello.
    case identify(Identify)
    /// op 2, from OBS once the Identify was accepted.
    case identified(Identified)
    /// op 6, a request from the client.
    case request(Request)
    /// op 7, OBS's answer to one request.
    case requestResponse(RequestResponse)
    /// Any other op (an event, a batch): its number, its data ignored.
    case other(op: Int)

    /// Hello's data: what OBS speaks and, when it wants a password, a challenge.
    public struct Hello: Sendable, Equatable, Codable {
        /// The challenge and salt that `OBSAuthentication` answers.
        public struct Authentication: Sendable, Equatable, Codable {
            public var challenge: String
            public var salt: String

            public init(challenge: String, salt: String) {
                self.challenge = challenge
                self.salt = salt
            }
        }

        public var obsWebSocketVersion: String?
        public var rpcVersion: Int
        public var authentication: Authentication?

        public init(obsWebSocketVersion: String? = nil, rpcVersion: Int = 1, authentication: Authentication? = nil) {
            self.obsWebSocketVersion = obsWebSocketVersion
            self.rpcVersion = rpcVersion
            self.authentication = authentication
        }
    }

    /// Identify's data: the protocol version, the answer to the challenge, and no events.
    public struct Identify: Sendable, Equatable, Codable {
        public var rpcVersion: Int
        public var authentication: String?
        public var eventSubscriptions: Int

        public init(rpcVersion: Int = 1, authentication: String? = nil, eventSubscriptions: Int = 0) {
            self.rpcVersion = rpcVersion
            self.authentication = authentication
            self.eventSubscriptions = eventSubscriptions
        }
    }

    /// Identified's data.
    public struct Identified: Sendable, Equatable, Codable {
        public var negotiatedRpcVersion: Int

        public init(negotiatedRpcVersion: Int = 1) {
            self.negotiatedRpcVersion = negotiatedRpcVersion
        }
    }

    /// Request's data: a request type such as `StartRecord`, an id its response repeats, and its data.
    public struct Request: Sendable, Equatable, Codable {
        public var requestType: String
        public var requestId: String
        public var requestData: JSONValue?

        public init(requestType: String, requestId: String, requestData: JSONValue? = nil) {
            self.requestType = requestType
            self.requestId = requestId
            self.requestData = requestData
        }
    }

    /// RequestResponse's data.
    public struct RequestResponse: Sendable, Equatable, Codable {
        /// Whether the request succeeded, OBS's RequestStatus code (100 is success) and why not.
        public struct Status: Sendable, Equatable, Codable {
            public var result: Bool
            public var code: Int
            public var comment: String?

            public init(result: Bool, code: Int, comment: String? = nil) {
                self.result = result
                self.code = code
                self.comment = comment
            }
        }

        public var requestType: String
        public var requestId: String
        public var requestStatus: Status
        public var responseData: JSONValue?

        public init(requestType: String, requestId: String, requestStatus: Status, responseData: JSONValue? = nil) {
            self.requestType = requestType
            self.requestId = requestId
            self.requestStatus = requestStatus
            self.responseData = responseData
        }
    }

    private enum CodingKeys: String, CodingKey {
        case op
        case d
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let op = try container.decode(Int.self, forKey: .op)
        switch op {
        case 0: self = .hello(try container.decode(Hello.self, forKey: .d))
        case 1: self = .identify(try container.decode(Identify.self, forKey: .d))
        case 2: self = .identified(try container.decode(Identified.self, forKey: .d))
        case 6: self = .request(try container.decode(Request.self, forKey: .d))
        case 7: self = .requestResponse(try container.decode(RequestResponse.self, forKey: .d))
        default: self = .other(op: op)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(op, forKey: .op)
        switch self {
        case .hello(let data): try container.encode(data, forKey: .d)
        case .identify(let data): try container.encode(data, forKey: .d)
        case .identified(let data): try container.encode(data, forKey: .d)
        case .request(let data): try container.encode(data, forKey: .d)
        case .requestResponse(let data): try container.encode(data, forKey: .d)
        case .other: try container.encode([String: JSONValue](), forKey: .d)
        }
    }

    /// The message's op code.
    public var op: Int {
        switch self {
        case .hello: 0
        case .identify: 1
        case .identified: 2
        case .request: 6
        case .requestResponse: 7
        case .other(let op): op
        }
    }

    /// Reads a message from the text of a frame.
    public init(json text: String) throws {
        self = try JSONLine.decode(OBSMessage.self, from: text.utf8)
    }

    /// The message as the text of a frame.
    public func json() -> String { JSONLine.encode(self) }
}
