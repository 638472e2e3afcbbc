/// The profile's `prompter` section.
public struct PrompterSpec: Sendable, Equatable {
    /// What happens at the script's end.
    public enum End: String, Sendable, CaseIterable {
        /// It stays on the last line.
        case pause
        /// It starts again from the top.
        case loop
    }

    /// Where the script stands when a take starts.
    public enum Start: String, Sendable, CaseIterable {
        /// At the start of the cue it stood in (the top, in a script without cues): a retake reads the part again.
        case cue
        /// At the top.
        case top
        /// Where it stood: where the last take stopped, or where it was moved to.
        case stay
    }

    public static let fonts: ClosedRange<Double> = 18...36
    public static let widths: ClosedRange<Int> = 20...80

    /// The script file (plain text or Markdown), relative to the profile's folder.
    public var script: String
    /// The largest script read, in bytes (a two-hour talk is about 100 KiB).
    public static let scriptLimit = 1 << 20
    /// The iOS app's prompter's speed (points a second) and font size (points).
    public static let defaultSpeed = 20.0
    public static let defaultFont = 24.0

    /// Points a second, 8 to 60.
    public var speed = defaultSpeed
    /// Points, 18 to 36.
    public var font = defaultFont
    /// Mirrored left to right, for beam-splitter glass.
    public var mirror = false
    public var end = End.pause
    public var start = Start.cue
    /// Whether the rig's page may edit the script (a credential is needed either way).
    public var editable = true
    /// Characters a line holds: every screen wraps the script the same way.
    public var width = 36

    public init(script: String) { self.script = script }

    /// A line's height in points.
    public var lineHeight: Double { font * 1.4 }
    /// The blank scrolled between the end and the top again when looping.
    public var loopGap: Double { lineHeight * 4 }
}
