import Hummingbird
import SlateCore

/// Who may do what. A credential is the API's token (`Authorization: Bearer
/// TOKEN`, for scripts) or a paired browser's cookie (`PairingStore`).
/// Every request that changes something (a POST, a PUT) needs one; a
/// browser's must also come from the page's own origin. Reads need none when the page is bound to a loopback address;
/// elsewhere (a wildcard address too) they need one as well, except the
/// pairing page, its files and its POST, which let a browser pair. A browser
/// that opens the page unpaired there is sent to the pairing page.
struct AccessCheck<Context: RequestContext>: RouterMiddleware {
    /// What anyone may ask: the pairing page and what it needs.
    static var open: Set<String> { ["/pair", "/pair.js", "/page.css", "/pair/me"] }

    let token: String
    let pairing: PairingStore?
    /// The page's bound address: reads need a credential too unless it is loopback.
    let address: BoundAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let reading = request.method == .get || request.method == .head
        if Self.open.contains(request.uri.path) && (reading || request.uri.path == "/pair") {
            if !reading, let refusal = Self.crossOrigin(request) { return JSONResponse.error(refusal, status: .forbidden) }
            return try await next(request, context)
        }
        switch credential(of: request) {
        case .token: return try await next(request, context)
        case .browser:
            if !reading, let refusal = Self.crossOrigin(request) { return JSONResponse.error(refusal, status: .forbidden) }
            return try await next(request, context)
        case .wrongToken: return Self.refusal("the token is wrong")
        case .none:
            if reading && address.isLoopback { return try await next(request, context) }
            if reading && request.uri.path == "/" { return Response(status: .seeOther, headers: [.location: "/pair"]) }
            return Self.refusal(
                reading
                    ? "this address needs a paired browser (open /pair) or the header Authorization: Bearer TOKEN"
                    : "an action needs a paired browser (open /pair) or the header Authorization: Bearer TOKEN")
        }
    }

    /// What a request carries.
    enum Credential {
        case token, browser(PairedBrowser), wrongToken, none
    }

    func credential(of request: Request) -> Credential {
        if let header = request.headers[.authorization] {
            guard header.hasPrefix("Bearer "), ConstantTime.equal(String(header.dropFirst(7)), token) else {
                return .wrongToken
            }
            return .token
        }
        if let cookie = request.cookies[PairingStore.cookieName]?.value, let browser = pairing?.browser(cookie: cookie) {
            return .browser(browser)
        }
        return .none
    }

    /// Why a browser's POST is refused: it came from another site (which
    /// `SameSite=Strict` should have stopped already); nil when it did not.
    static func crossOrigin(_ request: Request) -> String? {
        let site = request.headers.first { $0.name.canonicalName == "sec-fetch-site" }?.value
        if let site, site != "same-origin", site != "none" {
            return "an action from another site (\(site.prefix(40))) is refused"
        }
        guard let origin = request.headers[.origin] else { return nil }
        let host = request.head.authority ?? ""
        guard origin == "http://\(host)" || origin == "https://\(host)" else {
            return "an action from another origin (\(origin.prefix(100))) is refused"
        }
        return nil
    }

    static func refusal(_ message: String) -> Response {
        var response = JSONResponse.error(message, status: .unauthorized)
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
    }
}

extension AccessCheck {
    /// Whether the credential `request` was let in with still holds, asked
    /// while its stream lasts: false once the paired browser it came from is
    /// revoked, where reads need a credential.
    func lasting(_ request: Request) -> @Sendable () -> Bool {
        guard !address.isLoopback, case .browser = credential(of: request), let pairing,
            let cookie = request.cookies[PairingStore.cookieName]?.value
        else { return { true } }
        return { pairing.browser(cookie: cookie) != nil }
    }
}
