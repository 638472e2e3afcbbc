import SlateCore
import SlateSystem

/// Turns what a frame source captures into a take's packets: raw frames are
/// encoded; a camera's compressed frames are passed through as they come (near
/// zero CPU) when pass-through is allowed, else MJPEG is decoded and encoded.
///
/// Packet timestamps count frames (the time base is the frame interval) and equal the
/// caller's `pts`. A passed-through H.264 stream yields no packets until a
/// keyframe brings its parameter sets (the MP4's extradata).
///
/// With a proxy, each packet comes with the proxy's for the same frame, made
/// from the picture just encoded (or, passed through, decoded once for it),
/// a keyframe wherever the take's packet is one (for passed-through MJPEG,
/// whose every frame is one: where a take starts, and each second).
public final class TakeEncoder {
    /// What makes the packets: the encoder, e.g. `libx264`, or `mjpeg pass-through`.
    public let name: String
    public let fps: FrameRate
    /// What the muxer needs; its extradata complete once packets come (a
    /// passed-through H.264 stream's, or a V4L2 M2M encoder's, is found in its
    /// first keyframe).
    public var parameters: VideoStreamParameters {
        if case .encode(let encoder, _) = mode { return encoder.parameters }
        return passedParameters
    }
    /// A passed-through stream's parameters.
    private var passedParameters: VideoStreamParameters
    /// The take file's extension: `mov` for MJPEG, which MP4 players do not take, else `mp4`.
    public let fileExtension: String

    private enum Mode {
        case encode(VideoEncoder, decoder: MJPEGDecoder?)
        case passThrough(codec: String)
    }

    private let mode: Mode
    /// The proxy's encoder; nil without a proxy, or once it failed (`takeProxyFailure()` says why).
    public private(set) var proxyEncoder: ProxyEncoder?
    /// Decodes passed-through frames for the proxy (and the thumbnail and preview, from its pictures).
    private var proxyDecoder: MJPEGDecoder?
    /// Whether the capture at hand is encoded for the proxy.
    private var proxyWanted = false
    private var proxyFailure: String?
    /// Packed pictures to I420.
    private let converter = PixelConverter()
    private var lastPicture: VideoFrame?
    /// A passed-through H.264 stream's frames since its last keyframe, to decode a thumbnail.
    private var sinceKeyframe: [CompressedFrame] = []

    /// Why a source's frames cannot be recorded.
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens the encoder for a source's frames (the first of `codecs` that
    /// opens), unless its compressed frames pass through, and the proxy's, when
    /// `proxy` asks for one smaller than the source. A proxy that cannot be
    /// opened is said by `takeProxyFailure()`; the takes are recorded without it.
    public init(format source: SourceFormat, codecs: [String], passThrough: Bool, proxy: ProxySpec? = nil) throws {
        fps = source.fps
        do {
            proxyEncoder = try proxy.flatMap { spec throws(MediaError) in try ProxyEncoder(spec, source: source) }
            if let codec = source.codec, passThrough, proxyEncoder != nil { proxyDecoder = try MJPEGDecoder(codec: codec) }
        } catch {
            proxyEncoder = nil
            proxyDecoder = nil
            proxyFailure = "the takes are recorded without a proxy: \(error)"
        }
        let timeBase = TimeBase(Int32(source.fps.seconds), Int32(source.fps.frames))
        switch source.codec {
        case let codec? where passThrough:
            guard ["mjpeg", "h264"].contains(codec) else {
                throw Unsupported(description: "Slate cannot pass \(codec) through; only MJPEG and H.264")
            }
            mode = .passThrough(codec: codec)
            name = "\(codec) pass-through"
            fileExtension = codec == "mjpeg" ? "mov" : "mp4"
            passedParameters = VideoStreamParameters(
                codec: codec, width: source.width, height: source.height, timeBase: timeBase, extradata: [],
                color: source.color)
            return
        case let codec?:
            guard codec == "mjpeg" else {
                throw Unsupported(description: "Slate decodes only MJPEG; allow pass-through to record \(codec)")
            }
            let encoder = try VideoEncoder(
                codecs: codecs, width: source.width, height: source.height, fps: source.fps, color: source.color)
            mode = .encode(encoder, decoder: try MJPEGDecoder())
            name = encoder.codecName
            passedParameters = encoder.parameters
        case nil:
            let encoder = try VideoEncoder(
                codecs: codecs, width: source.width, height: source.height, fps: source.fps, color: source.color)
            mode = .encode(encoder, decoder: nil)
            name = encoder.codecName
            passedParameters = encoder.parameters
        }
        fileExtension = "mp4"
    }

    /// The packets for one capture at `pts`, each with the proxy's for its
    /// frame when `proxy` (a take records, starts, or pre-roll keeps frames);
    /// `keyframe` asks the encoder for an IDR frame (passed-through frames are
    /// keyframes when the camera made them so). A proxy that fails stops for
    /// the stream; the take goes on.
    public func packets(for capture: CameraFrame, pts: Int64, keyframe: Bool, proxy: Bool = false) throws -> [TakePacket] {
        proxyWanted = proxy && proxyEncoder != nil
        let packets = try takePackets(for: capture, pts: pts, keyframe: keyframe)
        guard proxyWanted, let proxyEncoder else { return packets.map { TakePacket(take: $0, proxy: nil) } }
        do {
            return try packets.map { packet throws(MediaError) in
                let proxyKeyframe = passesMJPEG ? keyframe || packet.pts % fps.nominal == 0 : packet.isKeyframe
                return TakePacket(take: packet, proxy: try proxyEncoder.packets(at: packet.pts, keyframe: proxyKeyframe).first)
            }
        } catch {
            dropProxy(error)
            return packets.map { TakePacket(take: $0, proxy: nil) }
        }
    }

    /// `packets`, or none while `encoder` has not given its parameter sets (a
    /// V4L2 M2M encoder's come with its first keyframe): a take never starts
    /// without them.
    private static func withParameterSets(_ packets: [EncodedPacket], of encoder: VideoEncoder) -> [EncodedPacket] {
        encoder.parameters.extradata.isEmpty ? [] : packets
    }

    /// Whether the camera's MJPEG passes through: every frame a keyframe.
    private var passesMJPEG: Bool {
        if case .passThrough("mjpeg") = mode { return true }
        return false
    }

    /// Why the proxy stopped, or could not start, once; nil while it works.
    public func takeProxyFailure() -> String? {
        defer { proxyFailure = nil }
        return proxyFailure
    }

    private func dropProxy(_ error: MediaError) {
        proxyEncoder = nil
        proxyDecoder = nil
        proxyFailure = "the proxy stopped: \(error)"
    }

    /// Gives the proxy the picture of the capture at `pts`, when it is wanted.
    private func addToProxy(_ picture: VideoFrame?, pts: Int64) {
        guard proxyWanted, let proxyEncoder, let picture else { return }
        do {
            try proxyEncoder.add(picture, pts: pts)
        } catch {
            dropProxy(error)
        }
    }

    private func takePackets(for capture: CameraFrame, pts: Int64, keyframe: Bool) throws -> [EncodedPacket] {
        switch (mode, capture) {
        case (.encode(let encoder, _), .raw(let frame)):
            lastPicture = frame
            addToProxy(frame, pts: pts)
            return try Self.withParameterSets(encoder.encode(frame, pts: pts, keyframe: keyframe), of: encoder)
        case (.encode(let encoder, let decoder?), .compressed(let compressed)):
            guard let frame = try decoder.decode(compressed) else { return [] }
            lastPicture = frame
            addToProxy(frame, pts: pts)
            return try Self.withParameterSets(encoder.encode(frame, pts: pts, keyframe: keyframe), of: encoder)
        case (.passThrough(let codec), .compressed(let compressed)):
            if codec == "h264" {
                if compressed.isKeyframe {
                    sinceKeyframe.removeAll(keepingCapacity: true)
                    if passedParameters.extradata.isEmpty,
                        let extradata = try H264ParameterSets.extradata(in: compressed.data)
                    {
                        passedParameters.extradata = extradata
                    }
                }
                guard !passedParameters.extradata.isEmpty else { return [] }
                sinceKeyframe.append(compressed)
            }
            if proxyWanted, let proxyDecoder {
                // A frame the camera damaged keeps the proxy's slot with the picture before it.
                lastPicture = (try? proxyDecoder.decode(compressed)) ?? lastPicture
                addToProxy(lastPicture, pts: pts)
            }
            return [
                EncodedPacket(
                    data: compressed.data, pts: pts, dts: pts, duration: 1,
                    isKeyframe: codec == "mjpeg" || compressed.isKeyframe)
            ]
        case (.encode, .compressed), (.passThrough, .raw):
            throw Unsupported(description: "the source yielded a frame of another kind than it said")
        case (_, .packed(let packed)):
            guard let frame = converter.convert(packed) else { return [] }
            return try takePackets(for: .raw(frame), pts: pts, keyframe: keyframe)
        }
    }

    /// The picture of the last capture given to `packets(for:)`, decoded if need be,
    /// for a thumbnail.
    public func picture(of capture: CameraFrame) -> VideoFrame? {
        switch (mode, capture) {
        case (.encode, _):
            return lastPicture
        case (.passThrough, .compressed(let compressed)) where lastPicture?.time == compressed.time:
            return lastPicture
        case (.passThrough(let codec), .compressed(let compressed)):
            guard let decoder = try? MJPEGDecoder(codec: codec) else { return nil }
            let frames = codec == "mjpeg" ? [compressed] : sinceKeyframe
            var picture: VideoFrame?
            for frame in frames { picture = (try? decoder.decode(frame)) ?? picture }
            return picture
        case (.passThrough, .raw(let frame)):
            return frame
        case (.passThrough, .packed(let packed)):
            return converter.convert(packed)
        }
    }

    /// A capture with a packed picture converted to I420 (nil when it cannot be); others as they are.
    public func unpacked(_ capture: CameraFrame) -> CameraFrame? { converter.unpacked(capture) }
}

/// A take's packet and, for a take with a proxy, the proxy's packet for the same frame.
public struct TakePacket: Sendable {
    /// The take's.
    public var take: EncodedPacket
    /// The proxy's, for the same frame; nil when no proxy is made of it.
    public var proxy: EncodedPacket?

    /// Whether a take can start at it: the take's packet is a keyframe, and the proxy's too.
    public var isKeyframe: Bool { take.isKeyframe && (proxy?.isKeyframe ?? true) }

    public init(take: EncodedPacket, proxy: EncodedPacket?) {
        self.take = take
        self.proxy = proxy
    }
}
