/// What an action asks of the recorder and the camera (`RigBook` answers it).
public enum RecorderCommand: Hashable, Sendable {
    case start
    case stop
    case deleteLast
    /// Delete a finished take, by its number or its file.
    case delete(TakeChoice)
    /// Bring back from the trash the last take deleted, or the one whose file this names.
    case undelete(String?)
    /// Mark the moment in the take that records.
    case mark(String?)
    /// Export through this filter, or (nil) the rig's.
    case export(ExportFilter?)
    case zoomStep(Double)
    case zoomSet(Double)
    case fpsToggle
    case cameraToggle
    case torchToggle
    case filterNext
    /// Set by a control: a frame rate, a camera, a filter, a preroll.
    case fpsSet(FrameRate)
    case cameraSet(CameraPosition)
    case filterSet(ExportFilter)
    case prerollSet(Duration)
    /// Asked of the teleprompter.
    case prompter(PrompterAction)
}

/// What a command did, as the action's report line says.
public enum RecorderOutcome: Hashable, Sendable {
    case started(take: Int)
    case stopped(take: Int)
    case deleted(take: Int)
    /// A take named by its file is being deleted; its `deleted` take line follows.
    case deleting(file: String)
    /// A take is being brought back from the trash (nil: the last deleted); its `restored` take line follows.
    case restoring(file: String?)
    /// A marker was put this far into the take that records.
    case marked(take: Int, at: Duration, name: String?)
    /// An export of this many takes began; its `exported` take line says when the joined file checks out.
    case exporting(takes: Int)
    case zoom(Double)
    case fps(FrameRate)
    case camera(CameraPosition)
    case torch(Bool)
    case filter(String)
    case preroll(Duration)
    /// What the teleprompter did, e.g. `prompter 34 pt/s`.
    case prompter(String)
    /// Nothing changed, and why (e.g. `not recording`).
    case ignored(String)

    /// A short description for logs, e.g. `started take 2`.
    public var summary: String {
        switch self {
        case .started(let take): "started take \(take)"
        case .stopped(let take): "stopped take \(take)"
        case .deleted(let take): "deleted take \(take)"
        case .deleting(let file): "deleting \(file)"
        case .restoring(let file): "restoring " + (file ?? "the last take deleted")
        case .marked(let take, let at, let name):
            "marked take \(take) at \(NumberText.format(at.inSeconds(decimals: 3))) s"
                + (name.map { " " + ReportFormat.shellQuoted($0) } ?? "")
        case .exporting(let takes): "exporting \(takes) take\(takes == 1 ? "" : "s")"
        case .zoom(let factor): "zoom " + ZoomText.format(factor)
        case .fps(let fps): "\(fps) fps"
        case .camera(let position): "\(position.rawValue) camera"
        case .torch(let on): on ? "torch on" : "torch off"
        case .filter(let name): "filter \(name)"
        case .preroll(let duration): "preroll " + DurationText.format(duration)
        case .prompter(let summary): summary
        case .ignored(let reason): "ignored: \(reason)"
        }
    }
}

/// Camera positions, as in the seed's front/back hierarchy.
public enum CameraPosition: String, Hashable, Sendable, CaseIterable {
    case back, front
}

/// Export filters, in `filter.next` order.
public enum ExportFilter: String, Hashable, Sendable, CaseIterable {
    case none, mono, sepia

    /// The filter `filter.next` moves to.
    public var next: ExportFilter {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

enum ZoomText {
    /// `1.5x`, with at most two decimals.
    static func format(_ factor: Double) -> String {
        let hundredths = Int((factor * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return "\(whole)x" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)x" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)x"
    }
}
