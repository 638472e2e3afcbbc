/// What a running rig shows of itself: `GET /status.json`, and the `status`
/// events of `/events`. The daemon makes one after each dispatch; the page
/// server only reads them.
public struct RigStatus: Codable, Equatable, Sendable {
    /// Seconds on the report lines' clock (their `t`) when the status was sent;
    /// a page counts a take's elapsed time from it.
    public var now: Double
    public var recording: Bool
    /// The take in progress, once its first frame is recorded.
    public var take: TakeInProgress?
    /// The finished takes not yet exported, oldest first.
    public var takes: [TakeEntry]
    /// The camera that streams; nil while none does.
    public var camera: CameraEntry?
    /// The export filter the next export applies.
    public var filter: String
    public var controls: ControlsEntry
    public var disk: DiskEntry?
    /// An export under way.
    public var export: ExportEntry?
    /// The sound recorded with takes; nil for picture-only takes.
    public var sound: SoundEntry?
    /// The teleprompter, when the profile has one.
    public var prompter: PrompterEntry?
    /// Clients watching the framing preview.
    public var previewers: Int
    /// The takes in the work folder's trash, the last deleted last.
    public var trash: [TrashEntry] = []
    /// How long a take deleted now waits in the trash; 0: it is deleted at once.
    public var trashHours = TakeTrash.defaultHours
    /// The profile's inputs: connected or not, and when each was last used.
    public var inputs: [InputEntry] = []
    /// What the rig's tally lights show (`/tally` shows it too).
    public var tally = TallyState.standby
    /// The other rigs on the broker, by name; nil when the profile joins none.
    public var rigs: [RigTile]?

    private enum CodingKeys: String, CodingKey {
        case now, recording, take, takes, camera, filter, controls, disk, export, sound, prompter, previewers, trash, inputs
        case tally, rigs
        case trashHours = "trash_hours"
    }

    /// Another rig on the broker, as its retained state says.
    public struct RigTile: Codable, Equatable, Sendable {
        public var rig: String
        public var online: Bool
        public var tally: TallyState?
        public var take: Int?

        public init(rig: String, state: RigState) {
            self.rig = rig
            online = state.online
            let named = state.tally.flatMap(TallyState.init(rawValue:))
            tally = state.online ? named ?? (state.recording == true ? .recording : .standby) : nil
            take = state.online ? state.take : nil
        }
    }

    /// An input of the profile (a pedal, a knob, a headset).
    public struct InputEntry: Codable, Equatable, Sendable {
        public var name: String
        /// The device bound to it; nil while none is connected.
        public var device: String?
        /// When it was last pressed or turned, in `now`'s seconds.
        public var used: Double?

        public init(name: String, device: String?, used: Double?) {
            self.name = name
            self.device = device
            self.used = used.map { $0.rounded(decimals: 3) }
        }
    }

    public init(
        now: Double = 0, recording: Bool, take: TakeInProgress?, takes: [TakeEntry], camera: CameraEntry?, filter: String,
        controls: ControlsEntry, disk: DiskEntry?, export: ExportEntry?, sound: SoundEntry?, prompter: PrompterEntry? = nil,
        previewers: Int = 0
    ) {
        self.prompter = prompter
        self.previewers = previewers
        self.now = now
        self.recording = recording
        self.take = take
        self.takes = takes
        self.camera = camera
        self.filter = filter
        self.controls = controls
        self.disk = disk
        self.export = export
        self.sound = sound
    }

    /// A take being recorded: its summary so far (frames lost are the camera's
    /// or the pipeline's).
    public struct TakeInProgress: Equatable, Sendable {
        public var number: Int
        /// When its first frame was captured, in `now`'s seconds.
        public var started: Double
        public var summary: TakeSummary

        public init(number: Int, started: Double, summary: TakeSummary = TakeSummary()) {
            self.number = number
            self.started = started.rounded(decimals: 6)
            self.summary = summary
        }
    }

    /// A finished take.
    public struct TakeEntry: Equatable, Sendable {
        public var number: Int
        /// The take's file name, which `take.delete` takes instead of a number
        /// that may have come to name another take meanwhile.
        public var file: String
        public var summary: TakeSummary
        /// Where the page gets its thumbnail; nil when it has none.
        public var thumbnail: String?
        /// When it started, UTC (`2026-11-21T09:45:12.345Z`).
        public var start: String?
        /// Its sound's length in seconds; nil for a picture-only take.
        public var sound: Double?
        /// Where the page plays and downloads it; nil while an export holds it.
        public var video: String?

        public init(
            number: Int, file: String, summary: TakeSummary, thumbnail: String?, start: String? = nil, sound: Double? = nil,
            video: String? = nil
        ) {
            self.number = number
            self.file = file
            self.summary = summary
            self.thumbnail = thumbnail
            self.start = start
            self.sound = sound
            self.video = video
        }
    }

    /// A take in the trash: its file, length, when it was deleted and when it goes for good (UTC).
    public struct TrashEntry: Codable, Equatable, Sendable {
        public var file: String
        /// Seconds, to the millisecond.
        public var duration: Double
        public var deleted: String
        public var expires: String

        /// `take`, in the trash, which keeps it `hours` from its deletion.
        public init(take: TakeManifest.Take, hours: Int) {
            file = take.file
            duration = take.summary.duration.inSeconds(decimals: 3)
            deleted = UTCTime.format(microseconds: take.trashed ?? 0)
            expires = UTCTime.format(microseconds: TakeTrash.expiry(of: take, hours: hours) ?? 0)
        }
    }

    /// The camera as the rig's books hold it.
    public struct CameraEntry: Codable, Equatable, Sendable {
        public var name: String
        public var position: String
        public var fps: FrameRate
        public var zoom: Double
        public var torch: Bool
        /// What it streams, e.g. `1920x1080 raw`, and what records it, e.g. `libx264`.
        public var mode: String?
        public var encoder: String?

        public init(
            name: String, position: String, fps: FrameRate, zoom: Double, torch: Bool, mode: String? = nil, encoder: String? = nil
        ) {
            self.mode = mode
            self.encoder = encoder
            self.name = name
            self.position = position
            self.fps = fps
            self.zoom = zoom.rounded(decimals: 6)
            self.torch = torch
        }
    }

    /// Room left on the take folder's disk.
    public struct DiskEntry: Codable, Equatable, Sendable {
        public var freeBytes: Int64
        /// The bit rate takes are recorded at, measured on the last take; nil before one.
        public var bitsPerSecond: Int64?
        /// Seconds of recording that fit at that rate.
        public var secondsLeft: Int64?

        enum CodingKeys: String, CodingKey {
            case freeBytes = "free_bytes", bitsPerSecond = "bits_per_second", secondsLeft = "seconds_left"
        }

        public init(freeBytes: Int64, bitsPerSecond: Int64?) {
            self.freeBytes = freeBytes
            self.bitsPerSecond = bitsPerSecond
            secondsLeft = bitsPerSecond.flatMap { $0 > 0 ? freeBytes * 8 / $0 : nil }
        }
    }

    /// How far an export under way has got.
    public struct ExportEntry: Codable, Equatable, Sendable {
        public var takes: Int
        /// 0...1.
        public var done: Double
        /// The takes being joined (numbered from 1 within the export): they
        /// stay listed until the joined file checks out.
        public var items: [TakeEntry]

        public init(takes: Int, done: Double, items: [TakeEntry] = []) {
            self.takes = takes
            self.done = done.rounded(decimals: 6)
            self.items = items
        }
    }

    /// The teleprompter: where it was at `since` (in `now`'s seconds), from
    /// which a screen counts on at `speed` while it runs. Past `length` it
    /// stays at the end, or, with `end: loop`, starts again after `gap`.
    public struct PrompterEntry: Codable, Equatable, Sendable {
        /// Points.
        public var anchor: Double
        public var since: Double
        /// Points a second.
        public var speed: Double
        public var running: Bool
        public var paused: Bool
        public var recording: Bool
        public var length: Double
        public var gap: Double
        public var end: String
        public var font: Double
        public var lineHeight: Double
        public var width: Int
        public var mirror: Bool
        /// Where each cue begins, in points.
        public var cues: [Double]
        /// Where a take starts: `cue`, `top` or `stay`.
        public var start: String
        /// The script's version: a screen showing another reads `/prompter/script.json` again.
        public var version: String
        /// Whether the rig's page may edit the script.
        public var editable: Bool

        enum CodingKeys: String, CodingKey {
            case anchor, since, speed, running, paused, recording, length, gap, end, font, width, mirror, cues, start, version,
                editable
            case lineHeight = "line_height"
        }

        /// `prompter` as it stands, its instants in seconds since `origin`.
        public init(_ prompter: Prompter, origin: Instant) {
            let anchor = prompter.anchor
            self.anchor = anchor.points.rounded(decimals: 6)
            since = (anchor.at - origin).inSeconds()
            speed = prompter.speed.rounded(decimals: 6)
            running = prompter.isRunning
            paused = prompter.paused
            recording = prompter.recording
            length = prompter.length.rounded(decimals: 6)
            gap = prompter.spec.loopGap.rounded(decimals: 6)
            end = prompter.spec.end.rawValue
            font = prompter.spec.font
            lineHeight = prompter.spec.lineHeight
            width = prompter.spec.width
            mirror = prompter.spec.mirror
            cues = prompter.cues.map { $0.rounded(decimals: 6) }
            start = prompter.spec.start.rawValue
            version = prompter.version
            editable = prompter.spec.editable
        }
    }

    /// The takes' sound device.
    public struct SoundEntry: Codable, Equatable, Sendable {
        public var device: String

        public init(device: String) { self.device = device }
    }
}

/// The take in progress as JSON: `number`, `started` and its summary's fields.
extension RigStatus.TakeInProgress: Codable {
    private enum CodingKeys: String, CodingKey {
        case number, started
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        started = try container.decode(Double.self, forKey: .started)
        summary = try TakeSummary(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(started, forKey: .started)
        try summary.encode(to: encoder)
    }
}

/// A finished take as JSON: `number`, `file`, `thumbnail`, `start`, `sound`, `video` and its summary's fields.
extension RigStatus.TakeEntry: Codable {
    private enum CodingKeys: String, CodingKey {
        case number, file, thumbnail, start, sound, video
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        file = try container.decode(String.self, forKey: .file)
        thumbnail = try container.decodeIfPresent(String.self, forKey: .thumbnail)
        start = try container.decodeIfPresent(String.self, forKey: .start)
        sound = try container.decodeIfPresent(Double.self, forKey: .sound)
        video = try container.decodeIfPresent(String.self, forKey: .video)
        summary = try TakeSummary(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(file, forKey: .file)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        try container.encodeIfPresent(start, forKey: .start)
        try container.encodeIfPresent(sound, forKey: .sound)
        try container.encodeIfPresent(video, forKey: .video)
        try summary.encode(to: encoder)
    }
}
