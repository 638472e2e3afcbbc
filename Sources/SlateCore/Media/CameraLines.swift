/// `slate cameras --json`: one camera, its modes and controls, and the mode
/// picked for each frame rate asked about.
public struct CameraLine: Codable, Hashable, Sendable {
    public var path: String
    public var card: String
    public var driver: String
    public var bus: String
    /// Why the modes or the controls could not be listed.
    public var errors: [String]?
    public var modes: [Mode]
    public var controls: [ControlLine]
    public var selections: [Selection]

    /// A pixel format at one frame size, and its frame intervals.
    public struct Mode: Codable, Hashable, Sendable {
        public var format: String
        public var name: String
        public var compressed: Bool
        public var emulated: Bool
        public var width: Int
        public var height: Int
        public var intervals: Intervals
        /// The highest frame rate, to two decimals.
        public var maxFPS: Double?

        public init(_ mode: CameraMode) {
            format = mode.pixelFormat.string
            name = mode.formatName
            compressed = mode.isCompressed
            emulated = mode.isEmulated
            width = mode.width
            height = mode.height
            intervals = Intervals(mode.intervals)
            maxFPS = mode.intervals.fastest.map(\.fpsValue)
        }
    }

    /// A list of intervals (`["1/30", "1/15"]`), or a range (`{"min": …, "max": …, "step": …}`).
    public enum Intervals: Codable, Hashable, Sendable {
        case discrete([String])
        case stepwise(min: String, max: String, step: String)

        public init(_ intervals: FrameIntervals) {
            switch intervals {
            case .discrete(let list): self = .discrete(list.map(\.description))
            case .stepwise(let min, let max, let step):
                self = .stepwise(min: min.description, max: max.description, step: step.description)
            }
        }

        private struct Range: Codable {
            var min: String
            var max: String
            var step: String
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([String].self) {
                self = .discrete(list)
            } else {
                let range = try container.decode(Range.self)
                self = .stepwise(min: range.min, max: range.max, step: range.step)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .discrete(let list): try container.encode(list)
            case .stepwise(let min, let max, let step): try container.encode(Range(min: min, max: max, step: step))
            }
        }
    }

    /// The mode picked for a frame rate (`outcome`: `chosen`, `below-frame-rate`
    /// or `unavailable`), and why.
    public struct Selection: Codable, Hashable, Sendable {
        public var fps: FrameRate
        public var outcome: String
        public var format: String?
        public var width: Int?
        public var height: Int?
        public var interval: String?
        public var intervalFPS: Double?
        public var passThrough: Bool?
        public var reason: String

        public init(fps: FrameRate, _ outcome: FormatSelection.Outcome) {
            self.fps = fps
            switch outcome {
            case .chosen: self.outcome = "chosen"
            case .belowFrameRate: self.outcome = "below-frame-rate"
            case .unavailable: self.outcome = "unavailable"
            }
            if let choice = outcome.choice {
                format = choice.mode.pixelFormat.string
                width = choice.mode.width
                height = choice.mode.height
                interval = choice.interval.description
                intervalFPS = choice.interval.fpsValue
                passThrough = choice.passesThrough
            }
            reason = outcome.reason
        }
    }

    public init(
        path: String, card: String, driver: String, bus: String, errors: [String], modes: [CameraMode],
        controls: [CameraControl], selections: [(fps: FrameRate, outcome: FormatSelection.Outcome)]
    ) {
        self.path = path
        self.card = card
        self.driver = driver
        self.bus = bus
        self.errors = errors.isEmpty ? nil : errors
        self.modes = modes.map(Mode.init)
        self.controls = controls.map { ControlLine($0, among: controls) }
        self.selections = selections.map { Selection(fps: $0.fps, $0.outcome) }
    }
}

/// `slate cameras --json` for a device that is not readable.
public struct UnreadableDeviceLine: Codable, Hashable, Sendable {
    public var path: String
    public var error: String

    public init(path: String, error: String) {
        self.path = path
        self.error = error
    }
}

/// `slate cameras --test DEVICE --json`: the mode streamed and what streaming it measured.
public struct CameraTestLine: Codable, Hashable, Sendable {
    public var path: String
    public var format: String
    public var width: Int
    public var height: Int
    public var interval: String
    public var intervalFPS: Double
    public var buffers: Int
    public var frames: Int
    /// Frames per second between the first and the last frame, to two decimals.
    public var measuredFPS: Double
    public var dropped: Int
    public var corrupt: Int
    public var firstSequence: UInt32
    public var lastSequence: UInt32
    /// The first and last frames' timestamps, seconds on CLOCK_MONOTONIC.
    public var first: Double
    public var last: Double
    public var driverTimestamps: Bool
    /// The last frame's size in bytes.
    public var bytes: Int

    public init(
        path: String, format: String, width: Int, height: Int, interval: String, intervalFPS: Double, buffers: Int,
        frames: Int, measuredFPS: Double, dropped: Int, corrupt: Int, firstSequence: UInt32, lastSequence: UInt32,
        first: Double, last: Double, driverTimestamps: Bool, bytes: Int
    ) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.interval = interval
        self.intervalFPS = intervalFPS
        self.buffers = buffers
        self.frames = frames
        self.measuredFPS = measuredFPS
        self.dropped = dropped
        self.corrupt = corrupt
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.first = first
        self.last = last
        self.driverTimestamps = driverTimestamps
        self.bytes = bytes
    }
}

extension Fraction {
    /// Frames per second to two decimals, the number `fpsText` writes.
    public var fpsValue: Double { Double(fpsText) ?? .infinity }
}
