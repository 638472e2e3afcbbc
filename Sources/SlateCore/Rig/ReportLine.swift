/// One report as a JSON line (`slate replay --json`, `monitor`, `run`): `t`,
/// `dispatched` when a live rig measured it, `type`, and that type's fields.
public struct ReportLine: Codable, Hashable, Sendable {
    /// Seconds since the origin (the recording's first event, or start).
    public var t: Double
    /// When a live rig handled the report, in the same seconds as `t`.
    public var dispatched: Double?
    public var fields: Fields

    /// The fields of each type of report; the case is the line's `type`.
    public indirect enum Fields: Hashable, Sendable {
        case capture(Capture)
        case action(Action)
        case sound(Sound)
        case take(Take)
        case ignored(Ignored)
        case debounced(Debounced)
        case control(Control)
        case rig(Rig)
        case obs(OBS)
    }

    /// A bound button's phase; `role` is `direct` for a button bound to actions.
    public struct Capture: Codable, Hashable, Sendable {
        public var input: String
        public var code: String
        public var role: String
        public var phase: String
    }

    /// An action the runner performed, its argument, what started it and what it did.
    public struct Action: Codable, Hashable, Sendable {
        public var action: String
        /// The step amount or axis delta of `zoom.step`, the factor of `zoom.set`,
        /// the take `take.delete` names by its number.
        public var value: Double?
        /// The take `take.delete` names by its file.
        public var file: String?
        /// The length of a `wait`, as the profile writes it (`250ms`).
        public var duration: String?
        public var sound: String?
        public var argv: [String]?
        /// The filter a `takes.export` chose.
        public var filter: String?
        /// The name a `take.mark` gave.
        public var marker: String?
        /// The rig a `rig` action is sent to, and the action `rig` and `rigs` send.
        public var rig: String?
        public var command: String?
        public var macro: String?
        public var input: String?
        public var code: String?
        public var role: String?
        public var gesture: String?
        /// Where an action that no button ran came from (`http`).
        public var source: String?
        /// What the recorder did, e.g. `started take 1`.
        public var result: String?
    }

    /// A feedback sound or a `sound` action.
    public struct Sound: Codable, Hashable, Sendable {
        public var sound: String
        public var file: String?
        public var input: String?
        /// Why it did not play; its line's `event` is then `failed`.
        public var error: String?
        public var event: String?
    }

    /// What happened to a take; an export counts its `takes` instead of naming
    /// a `take`, and one under way (`exporting`) says how much of it is `done`.
    public struct Take: Codable, Hashable, Sendable {
        public var event: String
        public var take: Int?
        public var takes: Int?
        public var path: String?
        /// Seconds, to the millisecond.
        public var duration: Double?
        /// A take's frames or an export's; for an export under way, those written so far.
        public var frames: Int?
        public var dropped: Int?
        /// A stopped take's sound.
        public var sound: SoundSummary?
        /// The part of an export's frames written, 0...1 to the hundredth, rounded down.
        public var done: Double?
        public var message: String?
        /// A started take's first frame on CLOCK_REALTIME, in nanoseconds since 1970.
        public var realtimeNs: Int64?
        /// A started take's first frame's timecode.
        public var timecode: String?
        /// An export's proxy.
        public var proxy: String?

        enum CodingKeys: String, CodingKey {
            case event, take, takes, path, duration, frames, dropped, sound, done, message, timecode, proxy
            case realtimeNs = "realtime_ns"
        }
    }

    /// Another rig's line, a rig coming or going, a command refused, or how
    /// far apart the rigs' first frames of a synchronized take were.
    public struct Rig: Codable, Hashable, Sendable {
        public var rig: String
        public var event: String
        public var text: String?
        public var line: ReportLine?
        public var spreadMs: Double?
        /// Each rig's first frame after the earliest, in milliseconds.
        public var firstFrames: [String: Double]?
        /// When a command sent is to run, on CLOCK_REALTIME (ns since 1970).
        public var atNs: Int64?

        enum CodingKeys: String, CodingKey {
            case rig, event, text, line
            case spreadMs = "spread_ms", firstFrames = "first_frames", atNs = "at_ns"
        }
    }

    /// What an OBS answered to a request: `ok`, or its `message`.
    public struct OBS: Codable, Hashable, Sendable {
        public var target: String
        public var request: String
        public var ok: Bool
        public var message: String?
    }

    /// A press that did nothing, and why.
    public struct Ignored: Codable, Hashable, Sendable {
        public var input: String
        public var code: String
        public var reason: String
    }

    /// A bounce of a button's contacts, folded into its press: how long they were open.
    public struct Debounced: Codable, Hashable, Sendable {
        public var input: String
        public var code: String
        public var bounceMs: Double

        enum CodingKeys: String, CodingKey {
            case input, code
            case bounceMs = "bounce_ms"
        }
    }

    /// A control's value, or what the overlay did (`event`).
    public struct Control: Codable, Hashable, Sendable {
        public var control: String
        public var event: String?
        public var value: Double?
        public var text: String?
        public var enabled: Bool?
        public var source: String?
        public var reason: String?
        public var asked: String?
    }

    public init(t: Double, dispatched: Double? = nil, fields: Fields) {
        self.t = t
        self.dispatched = dispatched
        self.fields = fields
    }

    /// `report` with its times in seconds since `origin`.
    public init(_ report: Report, origin: Instant, dispatched: Instant? = nil) {
        t = (report.time - origin).inSeconds()
        self.dispatched = dispatched.map { ($0 - origin).inSeconds() }
        switch report {
        case .phase(let report):
            fields = .capture(
                Capture(
                    input: report.input, code: report.code.name, role: report.role?.rawValue ?? "direct",
                    phase: report.phase.rawValue))
        case .action(let report):
            var action = Action(action: report.action.name, value: report.value.map(Self.rounded))
            switch report.action {
            case .wait(let duration): action.duration = DurationText.format(duration)
            case .sound(let name): action.sound = name
            case .zoomSet(let factor): action.value = Self.rounded(factor)
            case .presetLoad(let slot), .presetSave(let slot), .takeDelete(.number(let slot)): action.value = Double(slot)
            case .takeDelete(.file(let name)), .takeUndelete(let name?): action.file = name
            case .takeMark(let name?): action.marker = name
            case .takesExport(let filter): action.filter = filter?.rawValue
            case .prompter(.back(let duration)): action.value = duration.inSeconds(decimals: 3)
            case .exec(let argv): action.argv = argv
            case .obs(let request): action.command = request.description
            case .rigs(let rigs):
                action.command = rigs.text
                if case .rig(let name) = rigs.target { action.rig = name }
            default: break
            }
            action.macro = report.macro
            if let trigger = report.trigger {
                action.input = trigger.input
                action.code = trigger.code.name
                action.role = trigger.role?.rawValue
                action.gesture = trigger.gesture?.rawValue
            }
            action.source = report.source
            action.result = report.outcome?.summary
            fields = .action(action)
        case .sound(let sound):
            fields = .sound(
                Sound(
                    sound: sound.sound, file: sound.file, input: sound.input, error: sound.failure,
                    event: sound.failure == nil ? nil : "failed"))
        case .take(let take):
            let export = take.event.isExport
            let figures = take.figures
            fields = .take(
                Take(
                    event: take.event.rawValue, take: export ? nil : take.take, takes: export ? take.take : nil,
                    path: take.path, duration: figures.duration.map { $0.inSeconds(decimals: 3) }, frames: figures.frames,
                    dropped: figures.dropped, sound: take.sound, done: take.progress?.done, message: take.message,
                    realtimeNs: take.realtimeNs, timecode: take.timecode, proxy: take.proxy))
        case .rig(let report):
            fields = .rig(report.fields)
        case .obs(let report):
            fields = .obs(report.fields)
        case .ignored(let ignored):
            fields = .ignored(Ignored(input: ignored.input, code: ignored.code.name, reason: ignored.reason.text))
        case .debounced(let debounced):
            fields = .debounced(
                Debounced(
                    input: debounced.input, code: debounced.code.name,
                    bounceMs: Double(debounced.bounce.microseconds) / 1000))
        case .control(let control):
            fields = .control(
                Control(
                    control: control.control, event: control.event?.rawValue, value: control.value.map(Self.rounded),
                    text: control.text, enabled: control.enabled, source: control.source?.rawValue,
                    reason: control.reason, asked: control.asked))
        }
    }

    /// A value as the text output shows it: to six decimals.
    private static func rounded(_ value: Double) -> Double { value.rounded(decimals: 6) }

    private enum Kind: String, Codable {
        case capture, action, sound, take, ignored, debounced, control, rig, obs
    }

    private enum CodingKeys: String, CodingKey {
        case t, dispatched, type
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        t = try container.decode(Double.self, forKey: .t)
        dispatched = try container.decodeIfPresent(Double.self, forKey: .dispatched)
        switch try container.decode(Kind.self, forKey: .type) {
        case .capture: fields = .capture(try Capture(from: decoder))
        case .action: fields = .action(try Action(from: decoder))
        case .sound: fields = .sound(try Sound(from: decoder))
        case .take: fields = .take(try Take(from: decoder))
        case .ignored: fields = .ignored(try Ignored(from: decoder))
        case .debounced: fields = .debounced(try Debounced(from: decoder))
        case .control: fields = .control(try Control(from: decoder))
        case .rig: fields = .rig(try Rig(from: decoder))
        case .obs: fields = .obs(try OBS(from: decoder))
        }
    }

    /// `t`, `dispatched` and `type` next to the fields of the report's type, in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(t, forKey: .t)
        try container.encodeIfPresent(dispatched, forKey: .dispatched)
        switch fields {
        case .capture(let capture):
            try container.encode(Kind.capture, forKey: .type)
            try capture.encode(to: encoder)
        case .action(let action):
            try container.encode(Kind.action, forKey: .type)
            try action.encode(to: encoder)
        case .sound(let sound):
            try container.encode(Kind.sound, forKey: .type)
            try sound.encode(to: encoder)
        case .take(let take):
            try container.encode(Kind.take, forKey: .type)
            try take.encode(to: encoder)
        case .ignored(let ignored):
            try container.encode(Kind.ignored, forKey: .type)
            try ignored.encode(to: encoder)
        case .debounced(let debounced):
            try container.encode(Kind.debounced, forKey: .type)
            try debounced.encode(to: encoder)
        case .control(let control):
            try container.encode(Kind.control, forKey: .type)
            try control.encode(to: encoder)
        case .rig(let rig):
            try container.encode(Kind.rig, forKey: .type)
            try rig.encode(to: encoder)
        case .obs(let obs):
            try container.encode(Kind.obs, forKey: .type)
            try obs.encode(to: encoder)
        }
    }
}
