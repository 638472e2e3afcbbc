/// What a tally light shows: the rig's state as the people on set need it.
public enum TallyState: String, CaseIterable, Codable, Hashable, Sendable {
    /// Nothing records; the rig is ready.
    case standby
    /// A take records: from the moment it is started, as a camera's REC light.
    case recording
    /// Takes are being joined into one video.
    case exporting
    /// Something failed: a take, an export, the camera.
    case error
}

/// What a tally's state is made from.
public struct TallySignals: Equatable, Sendable {
    /// A take is started and not stopped.
    public var recording = false
    /// An export runs.
    public var exporting = false
    /// The camera was lost and has not come back.
    public var cameraLost = false

    public init(recording: Bool = false, exporting: Bool = false, cameraLost: Bool = false) {
        self.recording = recording
        self.exporting = exporting
        self.cameraLost = cameraLost
    }
}
