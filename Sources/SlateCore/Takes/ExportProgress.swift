/// How far an export has got: the frames written of the frames its takes
/// hold, as `takes.json` lists them.
public struct ExportProgress: Sendable, Equatable {
    /// The takes being joined.
    public var takes: Int
    /// The frames written so far.
    public var frames: Int
    /// The frames the takes hold.
    public var total: Int

    public init(takes: Int, frames: Int, total: Int) {
        self.takes = takes
        self.frames = frames
        self.total = total
    }

    /// The part of the frames written, 0...1 (1 when the takes hold none).
    public var fraction: Double { total > 0 ? min(1, Double(max(0, frames)) / Double(total)) : 1 }

    /// `fraction` rounded down to the hundredth, as `exporting` lines report it
    /// (`done`): 0.999 is 0.99, never a finished export.
    public var done: Double { (fraction * 100).rounded(.down) / 100 }
}

/// When `slate run` reports an export under way (an `exporting` take line):
/// at most once a second, the first a second after the export started, and
/// only once another twentieth (5%) of its frames is written since the last
/// line; never for the last frame, as the `exported` line follows. An export
/// shorter than a second reports nothing; one of a few seconds or more is
/// reported at least at each quarter of the way (about 25, 50 and 75%), and a
/// long one about twenty times.
public struct ExportProgressPace: Sendable {
    /// The least time between two lines, and from the export's start to the first.
    public static let interval = Duration.seconds(1)
    /// How many steps an export is cut into: a line needs one more step done.
    public static let steps = 20

    private var last: Instant
    private var step = 0

    /// An export that started at `start`.
    public init(start: Instant) { last = start }

    /// Whether `progress`, measured at `time`, is to be reported; if so, it
    /// counts as the last line.
    public mutating func report(_ progress: ExportProgress, at time: Instant) -> Bool {
        let reached = Int((progress.fraction * Double(Self.steps)).rounded(.down))
        guard progress.frames < progress.total, reached > step, time - last >= Self.interval else { return false }
        last = time
        step = reached
        return true
    }
}
