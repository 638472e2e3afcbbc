/// How takes are joined into one video: by stream copy when every take has the
/// same codec parameters and no filter is asked for, else by re-encoding; how
/// their sound is joined (copied when every take's sound can be, else encoded
/// again as AAC); with each take's timestamps offset by the takes before it,
/// and the rules that verify the result before any take is deleted.
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
        /// The take's sound stream; nil when it has none.
        public var sound: Sound?

        public init(
            path: String, codec: String, width: Int, height: Int, extradata: [UInt8], duration: Duration,
            frameDuration: Duration, sound: Sound? = nil
        ) {
            self.path = path
            self.codec = codec
            self.width = width
            self.height = height
            self.extradata = extradata
            self.duration = duration
            self.frameDuration = frameDuration
            self.sound = sound
        }
    }

    /// A take's sound stream, as its packets say (times in frames of its rate).
    public struct Sound: Equatable, Sendable {
        /// libav's codec name: `aac`, `opus` or `pcm_s16le`.
        public var codec: String
        public var format: AudioFormat
        /// The codec's global header: equal bytes (and codec and format) mean packets can be copied.
        public var extradata: [UInt8]
        /// Frames in a packet (0 when the container does not say, as for PCM).
        public var frameSize: Int
        /// Where the first packet starts: before 0 by the encoder's priming (AAC: -1024).
        public var start: Int64
        /// Where the last packet ends.
        public var end: Int64

        public init(codec: String, format: AudioFormat, extradata: [UInt8], frameSize: Int, start: Int64, end: Int64) {
            self.codec = codec
            self.format = format
            self.extradata = extradata
            self.frameSize = frameSize
            self.start = start
            self.end = end
        }

        /// One audio frame, the tolerance of sound against picture: the frame
        /// size, or 1024 frames when the container does not give one.
        public var frameTolerance: Int64 { Int64(frameSize > 0 ? frameSize : 1024) }
    }

    /// How the export's sound is made.
    public enum SoundMethod: Equatable, Sendable, CustomStringConvertible {
        /// Every take's packets copied, each take's at its offset.
        case copy
        /// Decoded, converted to the first take's format, placed, encoded again; `reason` says why.
        case reencode(reason: String)

        /// `copied`, or `re-encoded (t2.mp4 has no sound)`.
        public var description: String {
            switch self {
            case .copy: "copied"
            case .reencode(let reason): "re-encoded (\(reason))"
            }
        }
    }

    /// A take's sound as joined, against its picture, in frames of the export's sound.
    public struct SoundSpan: Equatable, Sendable {
        public var path: String
        /// Frames of the take's picture span.
        public var picture: Int64
        /// Frames of sound the export holds for that span.
        public var sound: Int64

        public init(path: String, picture: Int64, sound: Int64) {
            self.path = path
            self.picture = picture
            self.sound = sound
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
    /// How the sound is joined; nil when no take has sound.
    public var sound: SoundMethod?
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
        sound = Self.soundMethod(takes)
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

    /// Copy when every take has sound the others' packets can follow (same
    /// codec, format and global header, not PCM, which MP4 does not hold here)
    /// covering its picture to within one audio frame; else re-encode, and
    /// silence fills what a take's sound does not cover.
    private static func soundMethod(_ takes: [Take]) -> SoundMethod? {
        guard let first = takes.first(where: { $0.sound != nil }), let sound = first.sound else { return nil }
        if let silent = takes.first(where: { $0.sound == nil }) {
            return .reencode(reason: "\(silent.path) has no sound")
        }
        for take in takes {
            guard let other = take.sound,
                other.codec != sound.codec || other.format != sound.format || other.extradata != sound.extradata
            else { continue }
            if other.codec == sound.codec && other.format == sound.format {
                return .reencode(reason: "\(take.path)'s sound has other codec parameters than \(first.path)'s")
            }
            return .reencode(
                reason:
                    "\(take.path)'s sound is \(other.codec) \(other.format), \(first.path)'s is \(sound.codec) \(sound.format)")
        }
        if sound.codec == "pcm_s16le" { return .reencode(reason: "PCM sound is stored as AAC in an MP4 export") }
        for take in takes {
            guard let other = take.sound else { continue }
            let seconds = { (frames: Int64) in
                Instant.formatSeconds(frames * 1_000_000 / Int64(other.format.rate), decimals: 3)
            }
            let pictureEnd = Int64(other.format.frames(in: take.duration))
            if other.start > other.frameTolerance {
                return .reencode(reason: "\(take.path)'s sound starts \(seconds(other.start)) s into the take")
            }
            if pictureEnd - other.end > other.frameTolerance {
                return .reencode(reason: "\(take.path)'s sound stops \(seconds(pictureEnd - other.end)) s before its picture")
            }
        }
        return .copy
    }

    /// The first take whose sound in the export is off its picture by more than
    /// `tolerance` frames (one audio frame), and by how much; nil when every one holds.
    public static func soundMismatch(_ spans: [SoundSpan], format: AudioFormat, tolerance: Int64) -> String? {
        guard let off = spans.first(where: { abs($0.sound - $0.picture) > tolerance }) else { return nil }
        let seconds = { (frames: Int64) in Instant.formatSeconds(frames * 1_000_000 / Int64(format.rate), decimals: 3) }
        let how =
            off.sound < off.picture ? "\(seconds(off.picture - off.sound)) s short" : "\(seconds(off.sound - off.picture)) s long"
        return
            "\(off.path)'s sound is \(how) of its picture in the joined file (\(seconds(off.sound)) s of sound for \(seconds(off.picture)) s)"
    }
}
