import Hummingbird

/// Refuses requests larger than a rig's page ever makes, before anything
/// else reads them: a target over `targetLimit` bytes (414), or header fields
/// over `headerLimit` bytes in all (431). SwiftNIO's parser already closes a
/// connection whose head passes 80 KiB.
struct RequestLimits<Context: RequestContext>: RouterMiddleware {
    static var targetLimit: Int { 4096 }
    static var headerLimit: Int { 16384 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        if request.uri.string.utf8.count > Self.targetLimit {
            return JSONResponse.error("the request's target is over \(Self.targetLimit) bytes", status: .uriTooLong)
        }
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.canonicalName.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > Self.headerLimit {
            return JSONResponse.error(
                "the request's header fields are over \(Self.headerLimit) bytes", status: .requestHeaderFieldsTooLarge)
        }
        return try await next(request, context)
    }

    /// `request`'s body, or, when it is over `limit` bytes, the 413 to answer.
    static func body(of request: Request, limit: Int) async -> Result<ByteBuffer, BodyTooLarge> {
        var request = request
        do {
            return .success(try await request.collectBody(upTo: limit))
        } catch {
            return .failure(
                BodyTooLarge(response: JSONResponse.error("the body is over \(limit) bytes", status: .contentTooLarge)))
        }
    }
}

/// A request body over what its route reads, with the response that says so.
struct BodyTooLarge: Error {
    var response: Response
}

/// The largest body a request may declare before anything reads it: one for
/// most routes, more for those that take a file's text.
struct BodyLimits: Sendable {
    let standard: Int
    let paths: [String: Int]

    init(_ standard: Int, paths: [String: Int] = [:]) {
        self.standard = standard
        self.paths = paths
    }

    func limit(for path: String) -> Int { paths[path] ?? standard }
}
