import FoundationEssentials

/// A command on a `cmd` topic: an action as a profile writes it, when to run
/// it (`at`, nanoseconds since 1970 on CLOCK_REALTIME; nil: on arrival), an id
/// that makes a second delivery of it run nothing, and the rig that sent it.
public struct RigCommandMessage: Codable, Hashable, Sendable {
    public var action: String
    public var at: Int64?
    public var id: String
    public var from: String?

    public init(action: String, at: Int64? = nil, id: String, from: String? = nil) {
        self.action = action
        self.at = at
        self.id = id
        self.from = from
    }
}

/// A line on a rig's `events` topic: the rig, the id of the command it answers
/// (if it answers one), the line as `slate run` prints it, and as JSON.
public struct RigEventMessage: Codable, Hashable, Sendable {
    public var rig: String
    public var command: String?
    public var text: String
    public var line: ReportLine?

    public init(rig: String, command: String? = nil, text: String, line: ReportLine? = nil) {
        self.rig = rig
        self.command = command
        self.text = text
        self.line = line
    }
}

/// A rig's retained `state`: whether it is online and, while it is, what it
/// records with. The broker publishes `{"online": false}` as its last will.
public struct RigState: Codable, Equatable, Sendable {
    public var online: Bool
    public var recording: Bool?
    /// The take in progress (its number) and how many takes the folder holds.
    public var take: Int?
    public var takes: Int?
    public var camera: RigStatus.CameraEntry?
    /// Each control's name and value as the overlay shows it.
    public var controls: [String: String]?
    public var diskFreeBytes: Int64?
    public var diskSecondsLeft: Int64?
    /// When the state was published (CLOCK_REALTIME, ns since 1970).
    public var realtimeNs: Int64?
    public var version: String?

    enum CodingKeys: String, CodingKey {
        case online, recording, take, takes, camera, controls, version
        case diskFreeBytes = "disk_free_bytes", diskSecondsLeft = "disk_seconds_left", realtimeNs = "realtime_ns"
    }

    public init(online: Bool) { self.online = online }

    /// An online rig's state, from the status its page shows.
    public init(_ status: RigStatus, version: String, realtimeNs: Int64? = nil) {
        online = true
        recording = status.recording
        take = status.take?.number
        takes = status.takes.count
        camera = status.camera
        controls = status.controls.items.isEmpty
            ? nil : Dictionary(status.controls.items.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        diskFreeBytes = status.disk?.freeBytes
        diskSecondsLeft = status.disk?.secondsLeft
        self.realtimeNs = realtimeNs
        self.version = version
    }

    /// The payload the broker keeps for a rig gone without saying goodbye.
    public static let offlinePayload = Array(JSONLine.encode(RigState(online: false)).utf8)
}
