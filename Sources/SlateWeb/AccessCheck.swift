import Hummingbird

/// Who may do what: every POST needs `Authorization: Bearer TOKEN`; reads
/// need nothing when the page is bound to a loopback address, and elsewhere
/// (a wildcard address too) the token too, as that header,
/// the `slate-token` cookie, or once as `?token=` (which sets the cookie, so
/// a browser, its event stream and its images carry it from then on).
struct AccessCheck<Context: RequestContext>: RouterMiddleware {
    static var cookieName: String { "slate-token" }

    let token: String
    /// The page's bound address: reads need the token too unless it is loopback.
    let address: BoundAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if request.method != .get && request.method != .head {
            guard let bearer, Self.same(bearer, token) else {
                return Self.refusal(
                    bearer == nil ? "this request needs the header Authorization: Bearer TOKEN" : "the token is wrong")
            }
            return try await next(request, context)
        }
        guard !address.isLoopback else { return try await next(request, context) }
        if let bearer, Self.same(bearer, token) { return try await next(request, context) }
        if let cookie = request.cookies[Self.cookieName]?.value, Self.same(cookie, token) {
            return try await next(request, context)
        }
        if let given = request.uri.queryParameters.get("token"), Self.same(given, token) {
            var response = try await next(request, context)
            response.headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return response
        }
        return Self.refusal(
            "this address needs the token: open the page once as /?token=TOKEN, or send Authorization: Bearer TOKEN")
    }

    /// Compares in a time that does not depend on where the texts differ.
    static func same(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8), expected = Array(expected.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }

    static func refusal(_ message: String) -> Response {
        var response = JSONResponse.error(message, status: .unauthorized)
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
    }
}
