/// What the page gives one client, so that idle, slow or half-sent
/// connections cannot take the rig's descriptors or lock the page out. The
/// shipped budgets are the stated constants; tests pass smaller ones.
public struct PageBudgets: Sendable {
    /// The most page connections open at once, whatever the descriptor limit.
    public static let connectionCeiling = 256
    /// The fewest page connections allowed, however low the descriptor limit.
    public static let connectionFloor = 8
    /// A new connection's request head must be complete this long after it opened.
    public static let headTimeout = Duration.seconds(10)
    /// A request's declared body must have arrived this long after its head.
    public static let bodyTimeout = Duration.seconds(10)
    /// A kept-alive connection's next request head must be complete this long after the previous response.
    public static let idleTimeout = Duration.seconds(5)
    /// How long a refused connection stays half-closed for its client to read why.
    public static let lingerTime = Duration.seconds(2)
    /// Connections the system holds for the page before it accepts them (the
    /// listen backlog, capped by net.core.somaxconn). They take no descriptor
    /// of the rig's; under a flood a new client waits its turn among them
    /// rather than have its SYN dropped and sent again 1, 3, 7 s later.
    public static let backlog = 4096
    /// How long one write of a response may wait on its client (a stream to a
    /// phone that went to sleep, a client that stopped reading) before the
    /// connection is closed.
    public static let stallTimeout = Duration.seconds(30)

    /// Connections open at once; at the cap, the one that has waited longest
    /// on its client is closed for a new one.
    public var connections: Int
    /// Event streams and previews open at once: at most half the connections,
    /// so the rest always serve requests (the status, actions) however many
    /// streams are asked for.
    public var streams: Int
    /// How long one write of a response may wait on its client.
    public var stall: Duration
    public var head: Duration
    public var body: Duration
    public var idle: Duration
    public var linger: Duration
    public var backlog: Int

    public init(
        connections: Int, streams: Int? = nil, stall: Duration = Self.stallTimeout, head: Duration = Self.headTimeout,
        body: Duration = Self.bodyTimeout, idle: Duration = Self.idleTimeout, linger: Duration = Self.lingerTime,
        backlog: Int = Self.backlog
    ) {
        self.connections = connections
        self.streams = streams ?? max(1, connections / 2)
        self.stall = stall
        self.head = head
        self.body = body
        self.idle = idle
        self.linger = linger
        self.backlog = backlog
    }

    /// The shipped budgets for a process that may open `descriptors`: the
    /// page takes at most a quarter of them, leaving the rest to the rig
    /// (takes, devices, camera buffers, the disk-full reserve).
    public init(descriptors: Int) {
        self.init(connections: Self.connectionCap(descriptors: descriptors))
    }

    /// A quarter of `descriptors`, within the floor and the ceiling.
    public static func connectionCap(descriptors: Int) -> Int {
        min(connectionCeiling, max(connectionFloor, descriptors / 4))
    }
}
