/// The profile's camera candidates against the cameras present: the first
/// candidate present wins, as in the seed's best-camera hierarchy.
public enum CameraCandidates {
    /// A V4L2 capture device as the system shows it.
    public struct Present: Sendable {
        public var path: String
        /// Its card name (VIDIOC_QUERYCAP), e.g. `HD Pro Webcam C920`.
        public var card: String
        /// Its /dev/v4l/by-id and by-path links.
        public var links: [String]

        public init(path: String, card: String, links: [String] = []) {
            self.path = path
            self.card = card
            self.links = links
        }
    }

    /// What a candidate resolved to.
    public enum Choice: Equatable, Sendable {
        case device(String)
        case testPattern
    }

    /// The first candidate that is present: `testpattern`, `card:NAME` (a glob on
    /// the card name), or a path or glob matched against device paths and their links.
    public static func pick(_ candidates: [String], present: [Present]) -> Choice? {
        for candidate in candidates {
            if candidate == "testpattern" { return .testPattern }
            if candidate.hasPrefix("card:") {
                let glob = Glob(String(candidate.dropFirst(5)))
                if let camera = present.first(where: { glob.matches($0.card) }) { return .device(camera.path) }
                continue
            }
            let glob = Glob(candidate)
            if let camera = present.first(where: { glob.matches($0.path) || $0.links.contains(where: glob.matches) }) {
                return .device(camera.path)
            }
        }
        return nil
    }
}
