import SlateCore

/// OBS's answer to one request.
public struct OBSResponse: Sendable, Equatable {
    public var requestType: String
    /// True when OBS did the request (RequestStatus 100).
    public var succeeded: Bool
    /// OBS's RequestStatus code, 500 OutputRunning say.
    public var code: Int
    /// Why the request failed, when OBS says.
    public var comment: String?
    /// The response's data, `{"outputPath": …}` for StopRecord say.
    public var data: JSONValue?

    public init(requestType: String, succeeded: Bool, code: Int, comment: String? = nil, data: JSONValue? = nil) {
        self.requestType = requestType
        self.succeeded = succeeded
        self.code = code
        self.comment = comment
        self.data = data
    }

    init(_ response: OBSMessage.RequestResponse) {
        self.init(
            requestType: response.requestType, succeeded: response.requestStatus.result,
            code: response.requestStatus.code, comment: response.requestStatus.comment, data: response.responseData)
    }
}

/// What became of a request handed to `OBSLink.enqueue`.
public struct OBSResult: Sendable, Equatable {
    /// The number `enqueue` returned for the request.
    public var serial: Int
    public var url: String
    public var requestType: String
    public var outcome: Result<OBSResponse, OBSError>

    public init(serial: Int, url: String, requestType: String, outcome: Result<OBSResponse, OBSError>) {
        self.serial = serial
        self.url = url
        self.requestType = requestType
        self.outcome = outcome
    }

    /// Nil when OBS did the request; otherwise why not, naming the target.
    public var failure: String? {
        switch outcome {
        case .success(let response) where response.succeeded:
            nil
        case .success(let response):
            "OBS at \(url) refused \(requestType) (code \(response.code))"
                + (response.comment.map { ": \($0)" } ?? "")
        case .failure(let error):
            error.description
        }
    }
}
