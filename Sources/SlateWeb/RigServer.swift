import Dispatch
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SlateCore
import SlateSystem
import Synchronization

/// The rig's page and HTTP API, served on one event-loop thread of its own.
/// It answers from the status board only, so a slow or hostile client costs
/// the rig nothing but that thread's time and the connections of `budgets`.
public final class RigServer: Sendable {
    /// The address it listens on, as given, with the port the system gave.
    public let address: HTTPListen
    /// The address its socket was bound to (the listen address resolved).
    public let bound: HTTPListen
    /// Whether only this machine can reach it (the bound address is
    /// 127.0.0.0/8 or ::1): elsewhere, reads need the token too.
    public let isLoopback: Bool
    private let group: MultiThreadedEventLoopGroup
    private let services: ServiceGroup
    private let ended = DispatchSemaphore(value: 0)

    private let boundAddress: BoundAddress

    /// Starts listening on `listen`, serving `board` and `preview` to
    /// requests for its own host names (and `hosts`); every POST needs
    /// `token` or a browser `pairing` paired, and every request does when
    /// the bound address is not loopback. `budgets` defaults to the shipped
    /// ones for this process's descriptor limit. Returns once the socket is
    /// bound, or throws why it could not be.
    public init(
        listen: HTTPListen, hosts: [String] = [], board: StatusBoard, preview: PreviewFeed, token: String,
        pairing: PairingStore? = nil, budgets: PageBudgets? = nil, logger: Logger
    ) throws {
        let budgets = budgets ?? PageBudgets(descriptors: DescriptorLimit.current ?? 1024)
        let page = try PageFiles.load()
        let boundAddress = BoundAddress()
        self.boundAddress = boundAddress
        let router = Router(context: PageContext.self)
        let access = AccessCheck<PageContext>(token: token, pairing: pairing, address: boundAddress)
        router.add(middleware: RequestLimits())
        router.add(middleware: access)
        RigRoutes(board: board, preview: preview, page: page, access: access).add(to: router)
        PrompterRoutes(board: board, page: page).add(to: router)
        PairRoutes(pairing: pairing, access: access, page: page, logger: logger).add(to: router)
        let registry = ConnectionRegistry(limit: budgets.connections, streams: budgets.streams)
        let server = HTTPServerBuilder { responder in
            PageChannel(
                http: HTTP1Channel(responder: responder), budgets: budgets, registry: registry, address: boundAddress,
                bodyLimits: BodyLimits(RigRoutes.bodyLimit, paths: ["/prompter/source": PrompterRoutes.bodyLimit]),
                streamPaths: RigRoutes.streamPaths)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var quiet = logger
        quiet.logLevel = .warning
        let binding = Mutex<Result<SocketAddress, any Error>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let app = Application(
            router: router, server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: "slate", backlog: budgets.backlog),
            onServerRunning: { channel in
                let result = Result { () throws -> SocketAddress in
                    guard let local = channel.localAddress else { throw ChannelError.unknownLocalAddress }
                    let machine = (try? System.enumerateDevices())?.compactMap(\.address) ?? []
                    boundAddress.set(
                        local, hosts: HostRule(listen: listen, bound: local, hosts: hosts, machine: machine),
                        links: PageLinks.links(bound: local, port: local.port ?? listen.port, hosts: hosts, machine: machine))
                    return local
                }
                binding.withLock { $0 = result }
                started.signal()
            },
            eventLoopGroupProvider: .shared(group), logger: quiet)
        let ended = self.ended
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: quiet))
        self.services = services
        Task {
            do {
                try await services.run()
            } catch {
                let first = binding.withLock { state -> Bool in
                    guard state == nil else { return false }
                    state = .failure(error)
                    return true
                }
                if first { started.signal() } else { logger.error("the page server stopped: \(error)") }
            }
            ended.signal()
        }
        started.wait()
        self.group = group
        switch binding.withLock({ $0 })! {
        case .success(let local):
            address = HTTPListen(host: listen.host, port: local.port ?? listen.port)
            bound = HTTPListen(host: HostRule.text(of: local) ?? listen.host, port: local.port ?? listen.port)
            isLoopback = BoundAddress.isLoopback(local)
        case .failure(let error):
            Task { await services.triggerGracefulShutdown() }
            ended.wait()
            try? group.syncShutdownGracefully()
            let reason = (error as? IOError).map { ListenFailure.reason(errno: $0.errnoCode, port: listen.port) }
            throw RigServerError(listen: listen, reason: reason ?? "\(error)")
        }
    }

    /// The addresses a phone can open the page at (each interface's for a
    /// wildcard address, never 0.0.0.0), the profile's host names first.
    public var links: [String] { boundAddress.links }

    /// Stops serving (the board and the preview should be closed first, so
    /// their streams end) and waits for it.
    public func stop() {
        let services = self.services
        Task { await services.triggerGracefulShutdown() }
        ended.wait()
        try? group.syncShutdownGracefully()
    }
}

/// The page server could not listen.
public struct RigServerError: Error, CustomStringConvertible {
    public var listen: HTTPListen
    public var reason: String

    public var description: String { "cannot serve the page on \(listen): \(reason)" }
}
