import Dispatch
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import SlateCore
import ServiceLifecycle
import SlateSystem
import Synchronization

/// The rig's page and HTTP API, served on one event-loop thread of its own.
/// It answers from the status board only, so a slow or hostile client costs
/// the rig nothing but that thread's time.
public final class RigServer: Sendable {
    /// Open connections beyond this wait to be accepted.
    static let connectionLimit = 1024

    /// The address it listens on, with the port the system gave.
    public let address: HTTPListen
    private let group: MultiThreadedEventLoopGroup
    private let services: ServiceGroup
    private let ended = DispatchSemaphore(value: 0)

    /// Starts listening on `listen`, serving `board` and `preview`; every POST
    /// needs `token`, and every request does when `listen` is not loopback.
    /// Returns once the socket is bound, or throws why it could not be.
    public init(listen: HTTPListen, board: StatusBoard, preview: PreviewFeed, token: String, logger: Logger) throws {
        let page = try PageFiles.load()
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLimits())
        router.add(middleware: AccessCheck(token: token, guardsReads: !listen.isLoopback))
        RigRoutes(board: board, preview: preview, page: page).add(to: router)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var quiet = logger
        quiet.logLevel = .warning
        let bound = Mutex<Result<Int, any Error>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: "slate",
                availableConnectionsDelegate: MaximumAvailableConnections(Self.connectionLimit)),
            onServerRunning: { channel in
                bound.withLock { $0 = .success(channel.localAddress?.port ?? listen.port) }
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
                let first = bound.withLock { state -> Bool in
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
        switch bound.withLock({ $0 })! {
        case .success(let port):
            address = HTTPListen(host: listen.host, port: port)
        case .failure(let error):
            ended.wait()
            try? group.syncShutdownGracefully()
            throw RigServerError(listen: listen, reason: "\(error)")
        }
    }

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
