import SlateCore
import SlateSystem

/// Joining takes that cannot be stream copied: decode, filter, encode.
extension TakeExporter {
    /// Decodes the takes one after another; scales them to the first take's
    /// size and applies `filter` in one filter graph; encodes them again with
    /// the first take's codec if it has an encoder (else H.264) at its frame
    /// rate. The display rotation of the first take is kept as its display
    /// matrix, as a stream copy keeps it. Each frame keeps its
    /// take's timing, shifted to start where the previous take ended, and the
    /// takes' sound goes beside it. A take stops at a read error, which its
    /// `Read` keeps. `progress` gets the frames encoded.
    func reencode(
        _ readers: [PacketReader], filter: ExportFilter, sound: SoundJoin?, to partial: Partial, progress: (Int) -> Void
    ) throws -> Joined {
        let first = readers[0]
        let (width, height, timeBase) = (first.parameters.width, first.parameters.height, first.parameters.timeBase)
        let codecs = [first.parameters.codec] + ["h264", "hevc"].filter { $0 != first.parameters.codec }
        // The decoder makes limited-range YUV of JPEG's full range (libswscale), and keeps other codecs' numbers.
        let color =
            first.parameters.codec == "mjpeg"
            ? first.parameters.color.convertedToLimitedYUV(fromRGB: false) : first.parameters.color
        let encoder = try VideoEncoder(codecs: codecs, width: width, height: height, fps: first.frameRate, color: color)
        let writer = try TakeWriter(
            io: partial.io, named: partial.name, in: partial.folder,
            parameters: VideoStreamParameters(
                codec: encoder.parameters.codec, width: width, height: height, timeBase: timeBase,
                extradata: encoder.parameters.extradata, color: color),
            rotation: first.rotation, sound: sound?.parameters, layout: .finished, stamp: partial.stamp)
        // Where each frame given to the encoder (its pts counts frames) goes in the joined video.
        var timeline: [Int64: (pts: Int64, duration: Int64)] = [:]
        var encoded: Int64 = 0
        var offset: Int64 = 0
        var last: Int64 = -1
        var reads: [Read] = []
        let chain = (["scale=\(width):\(height):flags=bilinear"] + [filter.filterChain].compactMap { $0 }).joined(separator: ",")
        var graph: FilterGraph?

        func write(_ packets: [EncodedPacket]) throws {
            for var packet in packets {
                guard let slot = timeline.removeValue(forKey: packet.pts) else {
                    throw MediaError(
                        "encode the export", path: encoder.codecName, message: "a packet for no frame given (pts \(packet.pts))")
                }
                packet.pts = slot.pts
                packet.dts = slot.pts
                packet.duration = slot.duration
                try sound?.write(before: packet.dts, to: writer)
                try writer.write(packet)
            }
        }

        var starts: [Int64] = []
        for (index, reader) in readers.enumerated() {
            starts.append(timeBase.microseconds(offset))
            try sound?.begin(take: index, at: offset)
            let source = reader.parameters.timeBase
            let decoder = try FrameDecoder(
                codec: reader.parameters.codec, extradata: reader.parameters.extradata, timeBase: source, source: reader.path)
            var durations: [Int64: Int64] = [:]
            var start: Int64?
            var previous: Int64?
            var end = offset
            var packets = 0
            var frames = 0

            func add(_ pictures: [FrameDecoder.Picture]) throws {
                for picture in pictures {
                    let time = picture.pts ?? previous.map { $0 + reader.frameDuration } ?? 0
                    previous = time
                    let duration = durations.removeValue(forKey: time) ?? reader.frameDuration
                    let base = start ?? time
                    start = base
                    let pts = max(offset + source.convert(time - base, to: timeBase), last + 1)
                    let length = max(1, source.convert(duration, to: timeBase))
                    last = pts
                    end = max(end, pts + length)
                    let frame = picture.frame
                    let filters =
                        try graph.flatMap { $0.width == frame.width && $0.height == frame.height ? $0 : nil }
                        ?? FilterGraph(width: frame.width, height: frame.height, chain: chain)
                    graph = filters
                    timeline[encoded] = (pts, length)
                    try write(encoder.encode(filters.apply(frame), pts: encoded))
                    encoded += 1
                    frames += 1
                    if encoded % 30 == 0 { progress(Int(encoded)) }
                }
            }

            let failure = try reader.forEachPacket { packet in
                packets += 1
                durations[packet.pts] = packet.duration
                try add(decoder.decode(packet))
            }
            try add(decoder.flush())
            guard frames == packets else {
                throw MediaError("decode the take", path: reader.path, message: "\(packets) frames read, \(frames) decoded")
            }
            reads.append(
                Read(
                    take: ExportPlan.Take(read: reader, duration: timeBase.microseconds(end - offset), frames: frames),
                    frames: frames, error: failure))
            try sound?.end(at: end)
            offset = end
        }
        try write(encoder.flush())
        guard timeline.isEmpty else {
            throw MediaError("encode the export", path: encoder.codecName, message: "\(timeline.count) frames were not encoded")
        }
        try sound?.finish(to: writer)
        try writer.finish(chapters: partial.chapters(starts: starts))
        progress(Int(encoded))
        return Joined(reads: reads, frames: Int(encoded), encoder: encoder.codecName)
    }
}
