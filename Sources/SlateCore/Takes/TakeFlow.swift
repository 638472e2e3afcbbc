/// The take pipeline's decisions about what it is asked, apart from the
/// frames (which `TakeRouter` decides): while the camera switches, the
/// commands that come wait for the switch to be over, so a take it splits
/// starts before they act; deletes and exports wait until a take that is
/// closing has closed, so they act on it too; a take cannot start without a
/// stream; a feedback sound's silence is never held. Each input returns the
/// actions the pipeline carries out, in order. `Export` is what an export
/// is asked with.
public struct TakeFlow<Export: Sendable>: Sendable {
    /// What the rig asks of the pipeline.
    public enum Command: Sendable {
        case start(Instant)
        case stop(Instant)
        case zoom(Double)
        /// Mark the open take at the frame of this instant.
        case mark(String?, at: Instant)
        /// Keep this much video from before each press.
        case preroll(Duration)
        /// The camera is switching: later commands wait for its outcome.
        case awaitSwitch
        case deleteLast
        /// Delete the finished take this names.
        case delete(TakeChoice)
        case undelete(String?)
        case export(Export)
        /// A feedback sound plays from `from` to `until`: silence it in takes.
        case muteSound(from: Instant, until: Instant)
    }

    /// What the pipeline does.
    public enum Action: Sendable {
        /// Start a take with the frame at `time` (`TakeRouter.start(at:)`).
        case start(Instant)
        /// Stop the take before the frame at `time` (`TakeRouter.stop(at:)`).
        case stop(Instant)
        case zoom(Double)
        case mark(String?, at: Instant)
        case preroll(Duration)
        case muteSound(from: Instant, until: Instant)
        /// A take could not start, and why.
        case startFailed(String)
        case deleteLast
        case delete(TakeChoice)
        case undelete(String?)
        case export(Export)
    }

    /// Where the pipeline's takes stand.
    private enum Take {
        /// No take is open (one may be starting, waiting for its frame).
        case none
        case open
        /// A stop came for the open take: deletes and exports wait for its close.
        case closing
    }

    private var streaming = false
    private var take = Take.none
    /// Commands that came while the camera switched, once one is switching.
    private var held: [Command]?
    /// Deletes and exports waiting until no take is closing.
    private var deferred: [Action] = []

    public init() {}

    /// Whether a switch of camera holds the commands that come.
    public var isSwitching: Bool { held != nil }

    /// The camera streams: takes can start.
    public mutating func streamStarted() { streaming = true }

    /// The take the last start asked for is open.
    public mutating func takeOpened() { take = .open }

    /// A command posted since the last frame. The pipeline hands each over in
    /// order, carrying out what one leads to before the next (a start with
    /// pre-roll opens its take at once), then says `commandsTaken()`.
    public mutating func received(_ command: Command) -> [Action] {
        if case .muteSound(let from, let until) = command {
            // Not held by a switch: the sound it silences goes on being captured.
            return [.muteSound(from: from, until: until)]
        }
        if held != nil {
            held?.append(command)
            return []
        }
        switch command {
        case .start(let time) where streaming: return [.start(time)]
        case .start: return [.startFailed("a take could not start: the camera is not streaming")]
        case .stop(let time) where streaming:
            if take == .open { take = .closing }
            return [.stop(time)]
        case .stop: return []
        case .zoom(let factor): return [.zoom(factor)]
        case .mark(let name, let at): return [.mark(name, at: at)]
        case .preroll(let preroll): return [.preroll(preroll)]
        case .awaitSwitch:
            held = []
            return []
        case .deleteLast: deferred.append(.deleteLast)
        case .delete(let choice): deferred.append(.delete(choice))
        case .undelete(let file): deferred.append(.undelete(file))
        case .export(let export): deferred.append(.export(export))
        case .muteSound: return []
        }
        return []
    }

    /// The commands posted since the last frame are all taken: the deletes
    /// and exports waiting run, unless a take is closing.
    public mutating func commandsTaken() -> [Action] { runDeferred() }

    /// The open take closed (stopped, its stream ended, or its file failed):
    /// the deletes and exports that waited for it run.
    public mutating func takeClosed() -> [Action] {
        take = .none
        return runDeferred()
    }

    /// The stream ended, its take (if any) closed: takes cannot start until the next.
    public mutating func streamEnded() {
        streaming = false
        take = .none
    }

    /// The switch is over, whatever came of it: returns the commands it held
    /// (those that came with its end last), which the pipeline hands over again, in order.
    public mutating func switchEnded() -> [Command] {
        defer { held = nil }
        return held ?? []
    }

    /// Deletes and exports, in order, once no take is closing: they act on the
    /// takes finished by then, the one that was closing included.
    private mutating func runDeferred() -> [Action] {
        guard take != .closing else { return [] }
        defer { deferred.removeAll() }
        return deferred
    }
}
