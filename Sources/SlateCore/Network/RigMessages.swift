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

    /// The longest id taken, in bytes.
    public static let idLimit = 128

    /// The largest command payload read, in bytes; a larger one is refused unread.
    public static let payloadLimit = 4096

    /// The command a payload on a `cmd` topic holds, or why it holds none:
    /// larger than `payloadLimit`, or not the command's JSON.
    public static func decode(_ payload: [UInt8]) -> Result<RigCommandMessage, CommandRefusal> {
        guard payload.count <= payloadLimit else {
            return .failure(CommandRefusal("a command is at most \(payloadLimit) bytes; this one is \(payload.count)"))
        }
        guard let command = try? JSONLine.decode(RigCommandMessage.self, from: payload) else {
            return .failure(
                CommandRefusal("not a command: a command is {\"action\": \"take.start\", \"id\": \"...\", \"at\": NS}"))
        }
        return .success(command)
    }

    /// The action as a refusal quotes it: its first 60 characters.
    public var shownAction: String {
        let scalars = action.unicodeScalars
        guard scalars.count > 60 else { return action }
        return String(String.UnicodeScalarView(scalars.prefix(60))) + "..."
    }

    /// Why a command as it arrived cannot run, or nil when its fields are
    /// well formed: an id of 1 to 128 printable ASCII characters, a sender
    /// that is a rig's name, an action of one line of at most
    /// `ActionText.limit` characters, and an instant after 1970.
    public var problem: String? {
        guard !id.isEmpty, id.utf8.count <= Self.idLimit, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "a command's id is 1 to \(Self.idLimit) printable ASCII characters without spaces"
        }
        if let from, MQTTSpec.rigNameProblem(from) != nil {
            return "a command's from is the sending rig's name: 1 to 32 lowercase letters, digits and dashes"
        }
        if let at, at <= 0 { return "a command's at is nanoseconds since 1970 on CLOCK_REALTIME, not \(at)" }
        if action.unicodeScalars.count > ActionText.limit || action.contains(where: \.isNewline) {
            return "an action is one line of at most \(ActionText.limit) characters"
        }
        return nil
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
    /// Where its takes are, `HOST:FOLDER`, for copying them to one machine (`slate takes timeline`).
    public var work: String?
    public var camera: RigStatus.CameraEntry?
    /// Each control's name and value as the overlay shows it.
    public var controls: [String: String]?
    public var diskFreeBytes: Int64?
    public var diskSecondsLeft: Int64?
    /// How well the rig's clock is kept; nil where the kernel will not say.
    public var clock: ClockSync?
    public var version: String?
    /// What its tally shows (`TallyState`'s names; kept as text, so a state a
    /// newer rig adds does not make its whole state unreadable).
    public var tally: String?

    enum CodingKeys: String, CodingKey {
        case online, recording, take, takes, work, camera, controls, clock, version, tally
        case diskFreeBytes = "disk_free_bytes", diskSecondsLeft = "disk_seconds_left"
    }

    public init(online: Bool) { self.online = online }

    /// An online rig's state, from the status its page shows.
    public init(_ status: RigStatus, work: String?, clock: ClockSync?, version: String) {
        online = true
        recording = status.recording
        take = status.take?.number
        takes = status.takes.count
        self.work = work
        camera = status.camera
        controls =
            status.controls.items.isEmpty
            ? nil : Dictionary(status.controls.items.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        diskFreeBytes = status.disk?.freeBytes
        diskSecondsLeft = status.disk?.secondsLeft
        self.clock = clock
        self.version = version
        tally = status.tally.rawValue
    }

    /// The payload the broker keeps for a rig gone without saying goodbye.
    public static let offlinePayload = Array(JSONLine.encode(RigState(online: false)).utf8)

    /// As `slate rigs` lists it: `cam-a  online  recording take 3  3 takes in cam-a:/home/ana/takes  testpattern 30 fps
    /// (640x360 h264 ...)  disk 12.3 GB free  clock ...`.
    public func text(rig: String) -> String {
        guard online else { return "\(rig)  offline" }
        var parts = [rig, "online"]
        if recording == true {
            parts.append("recording" + (take.map { " take \($0)" } ?? ""))
        } else {
            parts.append("idle")
        }
        if let takes { parts.append("\(takes) take\(takes == 1 ? "" : "s")" + (work.map { " in \($0)" } ?? "")) }
        if let camera {
            parts.append("\(camera.name) \(camera.fps) fps" + (camera.mode.map { " (\($0))" } ?? ""))
        } else {
            parts.append("no camera")
        }
        if let free = diskFreeBytes {
            parts.append(
                "disk \(NumberText.format((Double(free) / 1e8).rounded() / 10)) GB free"
                    + (diskSecondsLeft.map { " (\($0 / 3600) h \($0 / 60 % 60) min)" } ?? ""))
        }
        parts.append("clock " + (clock?.text ?? "unknown"))
        return parts.joined(separator: "  ")
    }
}

/// Why a payload is not a command that can run.
public struct CommandRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
