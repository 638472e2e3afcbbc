import FoundationEssentials
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import SlateCore
import SlateSystem

/// Pairing a browser: the page it pairs on, the code it sends, what it is,
/// and a new code a paired browser opens for another device.
struct PairRoutes: Sendable {
    /// The largest pairing request body read.
    static let bodyLimit = 1024
    /// How long a paired browser keeps its cookie: a year, or until revoked.
    static let cookieSeconds = 365 * 24 * 3600

    let pairing: PairingStore?
    let access: AccessCheck<PageContext>
    let page: PageFiles
    let logger: Logger

    func add(to router: Router<PageContext>) {
        router.get("/pair") { _, _ in self.page.response("pair.html") }
        router.post("/pair") { request, context in await self.pair(request, from: context.remoteAddress) }
        router.get("/pair/me") { request, _ in self.me(request) }
        router.post("/pair/code") { request, _ in await self.code(for: request) }
    }

    /// What a browser sends to pair.
    private struct Asked: Decodable {
        var code: String
        var name: String?
    }

    /// What a browser is told of itself.
    private struct Me: Encodable {
        /// Whether it may act: it is paired, or it sent the token.
        var acts: Bool
        /// Whether reads need no credential here (the page is on loopback).
        var loopback: Bool
        var pairing: Bool
        var id: String?
        var name: String?
    }

    /// A new code and where to open the page with it.
    private struct Offer: Encodable {
        var code: String
        var expires: Int64
        var minutes: Int64
        var links: [String]
    }

    private func pair(_ request: Request, from remote: SocketAddress?) async -> Response {
        guard let pairing else { return JSONResponse.error("pairing is off on this rig", status: .notFound) }
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            return JSONResponse.error("send the code as JSON (Content-Type: application/json)", status: .unsupportedMediaType)
        }
        let body: ByteBuffer
        switch await RequestLimits<PageContext>.body(of: request, limit: Self.bodyLimit) {
        case .success(let read): body = read
        case .failure(let refusal): return refusal.response
        }
        guard let asked = try? JSONDecoder().decode(Asked.self, from: Data(body.readableBytesView)) else {
            return JSONResponse.error(#"send {"code": "123456"}, and a "name" if you like"#, status: .badRequest)
        }
        let address = remote.flatMap(HostRule.text(of:)) ?? "unknown"
        let userAgent = request.headers[.userAgent] ?? ""
        // Its files are written and synced off the page's event loop.
        let answer: Result<(browser: PairedBrowser, cookie: String), PairingStore.Failure>
        do {
            answer = try await NIOThreadPool.singleton.runIfActive {
                pairing.pair(
                    code: asked.code, name: asked.name, userAgent: userAgent, address: address,
                    now: WallClock.microseconds() / 1_000_000)
            }
        } catch {
            return JSONResponse.error("the rig is stopping", status: .serviceUnavailable)
        }
        switch answer {
        case .success(let (browser, cookie)):
            logger.notice("paired \(browser.name) (\(browser.id)) from \(address)")
            var response = JSONResponse.ok(["id": browser.id, "name": browser.name])
            response.headers[.setCookie] =
                "\(PairingStore.cookieName)=\(cookie); Path=/; Max-Age=\(Self.cookieSeconds); HttpOnly; SameSite=Strict"
            return response
        case .failure(let failure):
            logger.warning("a browser at \(address) was not paired: \(failure)")
            return JSONResponse.error(failure.description, status: .forbidden)
        }
    }

    private func me(_ request: Request) -> Response {
        var me = Me(acts: false, loopback: access.address.isLoopback, pairing: pairing != nil)
        switch access.credential(of: request) {
        case .token: me.acts = true
        case .browser(let browser): (me.acts, me.id, me.name) = (true, browser.id, browser.name)
        case .wrongToken, .none: break
        }
        return JSONResponse.ok(me)
    }

    private func code(for request: Request) async -> Response {
        guard let pairing else { return JSONResponse.error("pairing is off on this rig", status: .notFound) }
        let now = WallClock.microseconds() / 1_000_000
        do {
            let code = try await NIOThreadPool.singleton.runIfActive { try pairing.issueCode(now: now) }
            if case .browser(let browser) = access.credential(of: request) {
                logger.notice("\(browser.name) (\(browser.id)) opened a pairing code")
            }
            return JSONResponse.ok(
                Offer(code: code.code, expires: code.expires, minutes: code.minutesLeft(now: now), links: access.address.links))
        } catch {
            return JSONResponse.error("no code could be opened: \(error)", status: .internalServerError)
        }
    }
}
