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
}
