/// How takes are joined into one video: by stream copy when every take has the
/// same codec parameters and no filter is asked for, else by re-encoding; with
/// each take's timestamps offset by the takes before it, and the rule that
/// verifies the result before any take is deleted.
public struct ExportPlan: Equatable, Sendable {
    /// What an export needs to know of one take (from probing its file).
    public struct Take: Equatable, Sendable {
        public var path: String
        public var codec: String
        public var width: Int
        public var height: Int
        /// The codec's global header (SPS/PPS/VPS); equal bytes mean packets can be copied.
        public var extradata: [UInt8]
        public var duration: Duration
        public var frameDuration: Duration

        public init(
            path: String, codec: String, width: Int, height: Int, extradata: [UInt8], duration: Duration,
            frameDuration: Duration
        ) {
            self.path = path
            self.codec = codec
            self.width = width
            self.height = height
            self.extradata = extradata
            self.duration = duration
            self.frameDuration = frameDuration
        }
    }

    public enum Method: Equatable, Sendable, CustomStringConvertible {
        case streamCopy
        /// Decode, filter if asked, encode; `reason` says why copying was not possible.
        case reencode(reason: String)

        /// `stream copy`, or `re-encode (the mono filter is applied)`.
        public var description: String {
            switch self {
            case .streamCopy: "stream copy"
            case .reencode(let reason): "re-encode (\(reason))"
            }
        }
    }

    public var takes: [Take]
    public var method: Method
    /// Where each take starts in the joined video.
    public var offsets: [Duration]
    public var total: Duration

    public init?(takes: [Take], filter: ExportFilter) {
        guard let first = takes.first else { return nil }
        self.takes = takes
        if filter != .none {
            method = .reencode(reason: "the \(filter.rawValue) filter is applied")
        } else if let other = takes.first(where: { $0.codec != first.codec }) {
            method = .reencode(reason: "\(other.path) is \(other.codec), \(first.path) is \(first.codec)")
        } else if let other = takes.first(where: { $0.width != first.width || $0.height != first.height }) {
            method = .reencode(
                reason: "\(other.path) is \(other.width)x\(other.height), \(first.path) is \(first.width)x\(first.height)")
        } else if let other = takes.first(where: { $0.extradata != first.extradata }) {
            method = .reencode(reason: "\(other.path) has other codec parameters than \(first.path)")
        } else {
            method = .streamCopy
        }
        var offsets: [Duration] = []
        var total = Duration.zero
        for take in takes {
            offsets.append(total)
            total += take.duration
        }
        self.offsets = offsets
        self.total = total
    }

    /// The joined file is right when its duration is within one frame of the takes' sum.
    public func verifies(duration: Duration) -> Bool {
        let frame = takes.map(\.frameDuration).max() ?? .zero
        let difference = duration - total
        return difference <= frame && difference >= .zero - frame
    }

    /// `slate-20261121-094512.mp4`: the export's file name for a wall-clock time (µs since 1970).
    public static func fileName(at microseconds: Int64) -> String {
        "slate-" + UTCTime.compact(microseconds: microseconds) + ".mp4"
    }
}
