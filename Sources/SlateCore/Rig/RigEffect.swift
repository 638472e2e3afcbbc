/// What a rig machine asks to be done: lines to report, sounds to play,
/// programs to start, and commands for the recorder and the camera. The
/// machine does none of it; whoever runs it carries the effects out in order.
public enum RigEffect: Sendable {
    /// The answer to `RigInput.attached`.
    case attachment(Attachment)
    /// A line for replay, monitor and run to print.
    case report(Report)
    /// A sound to play (its report comes first).
    case play(SoundReport)
    /// A program to start, never through a shell: its argv, and the variables
    /// describing its event (`ExecEnvironment.event`); the times are added by
    /// whoever starts it, on its clock.
    case exec(argv: [String], environment: [(String, String)], at: Instant)
    /// A command for the take pipeline.
    case take(TakeCommand, at: Instant)
    /// A command for the camera's owner.
    case camera(CameraCommand, at: Instant)
    /// Save or load a preset of the camera's controls.
    case preset(PresetCommand, at: Instant)
    /// A command for other rigs (and, for `rigs`, this one), to send through the broker.
    case rigs(RigsCommand, at: Instant)
    /// A request for every OBS of the profile.
    case obs(OBSRequest, at: Instant)

    /// The result of attaching a device.
    public enum Attachment: Sendable {
        case bound(SourceID, input: String)
        /// No input matches; one entry per input says why.
        case unmatched([InputMatch])
    }
}

/// What the take pipeline is asked to do.
public enum TakeCommand: Hashable, Sendable {
    /// Start a take with the frame captured at or after the command's instant.
    case start
    /// Close the take in progress at the command's instant.
    case stop
    case deleteLast
    /// Delete a finished take: of this number (from 1, among the takes not
    /// held by an export), or of this file.
    case delete(TakeChoice)
    /// Bring back from the trash the last take deleted, or the one whose file this names.
    case undelete(String?)
    /// Mark the take that records at the frame of this instant (the recorder
    /// measures it from the take's first frame, which it knows best).
    case mark(String?, at: Instant)
    /// Export every available take through `filter` into one video.
    case export(ExportFilter)
    /// Keep this much video from before each press, from now on.
    case preroll(Duration)
}

/// What the camera's owner is asked to do.
public enum CameraCommand: Hashable, Sendable {
    /// Aim the zoom at `factor` (1x-6x; it ramps).
    case zoom(Double)
    case torch(Bool)
    /// Stream from the camera at `position` at `fps`, closing the one that
    /// streams; with `splitting`, the take in progress is closed at the
    /// command's instant and the next one starts with the new camera.
    case switchTo(CameraPosition, fps: FrameRate, splitting: Bool)
    /// Set a V4L2 control; the camera answers with `RigFact.controlSet`.
    case setControl(CameraControl.ID, Int64)
}
