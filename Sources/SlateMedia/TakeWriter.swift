import CAV
import SlateCore
import SlateSystem
import SystemPackage

/// Writes one take as a fragmented MP4 (`frag_keyframe+empty_moov+default_base_moof`),
/// or QuickTime when the path ends in `.mov` (for MJPEG): a new fragment starts at
/// every keyframe and is flushed to the file at once, so a crash or a kill leaves a
/// playable file that ends at the last fragment, and a failed write (a full disk)
/// can be cut back to it with `abandon()`. An export is written as a finished MP4
/// instead (`Layout.finished`). libav writes through the descriptor of the file
/// Slate created, never by path.
///
/// A take with sound has a second stream, written between the picture's packets,
/// so every fragment holds the sound of its span. Its moov is written with the
/// first fragment (`delay_moov`), which lets it carry the edit list that hides
/// the sound encoder's priming frames, so the sound starts with the picture to the frame.
public final class TakeWriter {
    /// How the file is laid out.
    public enum Layout: Hashable, Sendable {
        /// A take: fragmented, a fragment flushed to the file at each keyframe.
        case fragmented
        /// A finished file, for exports: not fragmented, its index (moov) moved
        /// in front of the media data once written (`movflags +faststart`, a
        /// second pass that reads the file back through its descriptor).
        case finished
    }

    /// When the file's first frame was recorded, as editors read it: the
    /// `creation_time` tag (µs since 1970), and a timecode track (`tmcd`, with
    /// the video stream's `timecode` tag) starting at that frame's timecode, at
    /// `rate`, the video's frame rate.
    public struct Stamp: Hashable, Sendable {
        public var created: Int64
        public var timecode: String?
        public var rate: FrameRate

        public init(created: Int64, timecode: String?, rate: FrameRate) {
            self.created = created
            self.timecode = timecode
            self.rate = rate
        }
    }

    /// The file's path, for messages.
    public let path: String
    public let parameters: VideoStreamParameters
    /// The sound stream's, for a take with sound.
    public let sound: AudioStreamParameters?
    /// Clockwise degrees a player turns the picture (0, 90, 180 or 270), stored as a display matrix.
    public let rotation: Int
    /// A take's fragments, or an export's finished file.
    public let layout: Layout
    /// Picture packets written so far.
    public private(set) var packetCount = 0
    /// Sound packets written so far.
    public private(set) var soundPacketCount = 0
    /// What the file holds in complete fragments, flushed to it.
    public private(set) var complete = Complete(bytes: 0, packets: 0, end: 0)

    /// The part of a take that is in complete fragments: the file's first `bytes`,
    /// holding its first `packets`, which end at `end` (in `parameters.timeBase`).
    public struct Complete: Hashable, Sendable {
        public var bytes: Int64
        public var packets: Int
        public var end: Int64
    }

    private let folder: Folder
    private let io: DescriptorIO
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var headerWritten = false
    private var finished = false
    private var written = Complete(bytes: 0, packets: 0, end: 0)

    /// Writes the MP4 (or MOV, for a `name` ending in `.mov`) header into `fd`, the
    /// new file `name` of `folder`. The writer owns `fd` from here, failing or not.
    public convenience init(
        fd: FileDescriptor, named name: String, in folder: Folder, parameters: VideoStreamParameters, rotation: Int = 0,
        sound: AudioStreamParameters? = nil, stamp: Stamp? = nil
    ) throws(MediaError) {
        let io = try DescriptorIO(fd: fd, writing: true, path: folder.file(name))
        try self.init(io: io, named: name, in: folder, parameters: parameters, rotation: rotation, sound: sound, stamp: stamp)
    }

    /// Writes the header through `io`, the new file `name` of `folder`.
    init(
        io: DescriptorIO, named name: String, in folder: Folder, parameters: VideoStreamParameters, rotation: Int = 0,
        sound: AudioStreamParameters? = nil, layout: Layout = .fragmented, stamp: Stamp? = nil
    ) throws(MediaError) {
        _ = LibAV.setUp
        let path = folder.file(name)
        self.path = path
        self.folder = folder
        self.io = io
        self.parameters = parameters
        self.sound = sound
        self.layout = layout
        self.rotation = ((rotation % 360) + 360) % 360
        guard self.rotation % 90 == 0 else {
            throw MediaError("write the take", path: path, message: "rotation \(rotation) is not a multiple of 90 degrees")
        }
        guard let descriptor = avcodec_descriptor_get_by_name(parameters.codec) else {
            throw MediaError("write the take", path: path, message: "unknown codec '\(parameters.codec)'")
        }
        let container = name.hasSuffix(".mov") ? "mov" : "mp4"
        try check(avformat_alloc_output_context2(&context, nil, container, nil), "create an MP4 muxer", path: path)
        packet = av_packet_alloc()
        guard let context, packet != nil, let stream = avformat_new_stream(context, nil) else {
            throw MediaError("create an MP4 muxer", path: path, code: slate_averror(ENOMEM))
        }
        let codecpar = stream.pointee.codecpar!
        codecpar.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        codecpar.pointee.codec_id = descriptor.pointee.id
        codecpar.pointee.width = Int32(parameters.width)
        codecpar.pointee.height = Int32(parameters.height)
        codecpar.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        parameters.color.apply(to: codecpar)
        // HEVC as `hvc1` (its parameter sets in the sample description), which QuickTime and iOS
        // play; libavformat's default `hev1` they refuse.
        if descriptor.pointee.id == AV_CODEC_ID_HEVC { codecpar.pointee.codec_tag = Self.fourCC("hvc1") }
        if !parameters.extradata.isEmpty {
            codecpar.pointee.extradata = try libavExtradata(parameters.extradata, "create an MP4 muxer", path: path)
            codecpar.pointee.extradata_size = Int32(parameters.extradata.count)
        }
        stream.pointee.time_base = parameters.timeBase.rational
        if let stamp {
            // The timecode track's rate is the stream's (libavformat reads avg_frame_rate).
            stream.pointee.avg_frame_rate = AVRational(num: Int32(stamp.rate.frames), den: Int32(stamp.rate.seconds))
            av_dict_set(&context.pointee.metadata, "creation_time", UTCTime.format(microseconds: stamp.created), 0)
            if let timecode = stamp.timecode { av_dict_set(&context.pointee.metadata, "timecode", timecode, 0) }
        }
        if self.rotation != 0 {
            let size = 9 * MemoryLayout<Int32>.size
            guard let matrix = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size) else {
                throw MediaError("add the display matrix", path: path, code: slate_averror(ENOMEM))
            }
            // The MP4 matrix of the `rotate` tag (90: a=0 b=1 c=-1 d=0), as phones write it;
            // players and ffprobe read it back as -90 (libav's angles are counterclockwise).
            matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_set($0, Double(self.rotation)) }
        }
        if let sound { try Self.addSoundStream(sound, to: context, path: path) }
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch layout {
        case .fragmented:
            let moov = sound == nil ? "empty_moov" : "delay_moov"
            av_dict_set(&options, "movflags", "frag_keyframe+\(moov)+default_base_moof", 0)
            av_dict_set(&options, "flush_packets", "1", 0)
        case .finished:
            av_dict_set(&options, "movflags", "+faststart", 0)
            // The MP4 muxer's name for the tag players read as `encoder` (©too).
            av_dict_set(&context.pointee.metadata, "encoding_tool", "Slate \(SlateVersion.current)", 0)
        }
        Self.readBackThroughDescriptor(context, io)
        try check(avformat_write_header(context, &options), "write the MP4 header", path: path)
        headerWritten = true
        avio_flush(context.pointee.pb)
        try checkWrites("write the MP4 header")
        complete.bytes = avio_tell(context.pointee.pb)
    }

    deinit {
        // Without finish(): close the open fragment (a complete moof+mdat) but
        // write no trailer, so the file stays playable to its last frame.
        if headerWritten && !finished, let context {
            av_write_frame(context, nil)
            avio_flush(context.pointee.pb)
        }
        close()
        av_packet_free(&packet)
    }

    /// Adds one packet; timestamps are in `parameters.timeBase` and must increase.
    /// A keyframe closes the previous fragment, which is flushed to the file.
    public func write(_ encoded: EncodedPacket) throws(MediaError) {
        guard let context, let packet, !finished else {
            throw MediaError("write a packet", path: path, message: "the take is closed")
        }
        try encoded.fill(packet, "write a packet", path: path)
        defer { av_packet_unref(packet) }
        packet.pointee.stream_index = 0
        av_packet_rescale_ts(packet, parameters.timeBase.rational, context.pointee.streams[0]!.pointee.time_base)
        try check(av_write_frame(context, packet), "write a packet", path: path)
        if encoded.isKeyframe {
            // The keyframe closed the fragment of the packets before it.
            avio_flush(context.pointee.pb)
            try checkWrites("write a packet")
            complete = Complete(bytes: avio_tell(context.pointee.pb), packets: written.packets, end: written.end)
        }
        packetCount += 1
        written = Complete(bytes: 0, packets: packetCount, end: encoded.pts + encoded.duration)
    }

    /// Adds one sound packet; timestamps count frames (1/rate) and must increase.
    /// It goes into the fragment the next keyframe closes.
    public func writeSound(_ encoded: EncodedPacket) throws(MediaError) {
        guard let context, let packet, let sound, !finished else {
            throw MediaError("write a sound packet", path: path, message: "the take is closed or has no sound")
        }
        try encoded.fill(packet, "write a sound packet", path: path)
        defer { av_packet_unref(packet) }
        packet.pointee.stream_index = 1
        av_packet_rescale_ts(packet, sound.timeBase.rational, context.pointee.streams[1]!.pointee.time_base)
        try check(av_write_frame(context, packet), "write a sound packet", path: path)
        soundPacketCount += 1
    }

    /// Adds `chapter` to the muxer's chapters (freed with its context).
    private func add(_ chapter: ExportChapters.Chapter, id: Int, end: Int64) throws(MediaError) {
        guard let context,
            let added = av_mallocz(MemoryLayout<AVChapter>.size)?.assumingMemoryBound(to: AVChapter.self)
        else { throw MediaError("add the chapters", path: path, code: slate_averror(ENOMEM)) }
        added.pointee.id = Int64(id)
        added.pointee.time_base = AVRational(num: 1, den: 1_000_000)
        added.pointee.start = chapter.start
        added.pointee.end = end
        var list = context.pointee.chapters
        var count = Int32(context.pointee.nb_chapters)
        guard av_dict_set(&added.pointee.metadata, "title", chapter.title, 0) >= 0,
            av_dynarray_add_nofree(&list, &count, added) >= 0
        else {
            av_dict_free(&added.pointee.metadata)
            av_free(added)
            throw MediaError("add the chapters", path: path, code: slate_averror(ENOMEM))
        }
        context.pointee.chapters = list
        context.pointee.nb_chapters = UInt32(count)
    }

    /// A four-character code as libav stores it (`MKTAG`).
    static func fourCC(_ code: String) -> UInt32 {
        code.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The sound stream: its codec, format, frame size, priming and global header.
    private static func addSoundStream(
        _ sound: AudioStreamParameters, to context: UnsafeMutablePointer<AVFormatContext>, path: String
    ) throws(MediaError) {
        guard let descriptor = avcodec_descriptor_get_by_name(sound.codec) else {
            throw MediaError("write the take", path: path, message: "unknown sound codec '\(sound.codec)'")
        }
        guard let stream = avformat_new_stream(context, nil) else {
            throw MediaError("add the sound stream", path: path, code: slate_averror(ENOMEM))
        }
        let codecpar = stream.pointee.codecpar!
        codecpar.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        codecpar.pointee.codec_id = descriptor.pointee.id
        codecpar.pointee.sample_rate = Int32(sound.format.rate)
        av_channel_layout_default(&codecpar.pointee.ch_layout, Int32(sound.format.channels))
        codecpar.pointee.frame_size = Int32(sound.frameSize)
        codecpar.pointee.initial_padding = Int32(sound.initialPadding)
        codecpar.pointee.bit_rate = Int64(sound.bitRate)
        if sound.codec == "pcm_s16le" {
            codecpar.pointee.format = AV_SAMPLE_FMT_S16.rawValue
            codecpar.pointee.bits_per_coded_sample = 16
            codecpar.pointee.block_align = Int32(2 * sound.format.channels)
        }
        if !sound.extradata.isEmpty {
            codecpar.pointee.extradata = try libavExtradata(sound.extradata, "add the sound stream", path: path)
            codecpar.pointee.extradata_size = Int32(sound.extradata.count)
        }
        stream.pointee.time_base = sound.timeBase.rational
    }

    /// After a failed write (a full disk): closes the file without a trailer and cuts
    /// it back to its complete fragments, which frees what the failed fragment took.
    /// Returns what the file holds.
    @discardableResult
    public func abandon() -> Complete {
        guard !finished else { return complete }
        finished = true
        if let pb = context?.pointee.pb { avio_flush(pb) }
        _ = Syscall.truncate(io.fd, to: complete.bytes)
        close()
        return complete
    }

    /// A write error the I/O layer kept (a short write is reported on a later flush).
    private func checkWrites(_ operation: String) throws(MediaError) {
        guard let pb = context?.pointee.pb, pb.pointee.error < 0 else { return }
        throw MediaError(operation, path: path, code: pb.pointee.error)
    }

    /// Writes the last fragment and the trailer (for a finished file, the index
    /// moved to the front), closes the file and syncs it and its folder to disk.
    /// When a take's last fragment cannot be written, the file is cut back to its
    /// complete fragments (`complete`) and the error thrown.
    /// Writes the trailer (an export's index, with `chapters`, each to the next
    /// one's start and the last to the end of the last frame: the MP4 muxer
    /// writes chapters it is given after the header at the trailer) and syncs the file.
    public func finish(chapters: [ExportChapters.Chapter] = []) throws(MediaError) {
        guard let context, !finished else { return }
        finished = true
        let end = parameters.timeBase.microseconds(written.end)
        for (index, chapter) in chapters.enumerated() {
            let next = index + 1 < chapters.count ? chapters[index + 1].start : end
            try add(chapter, id: index + 1, end: max(chapter.start, next))
        }
        defer { close() }
        let status = av_write_trailer(context)
        avio_flush(context.pointee.pb)
        let writeStatus = context.pointee.pb.pointee.error
        if layout == .fragmented && (status < 0 || writeStatus < 0) { _ = Syscall.truncate(io.fd, to: complete.bytes) }
        try check(status, "write the MP4 trailer", path: path)
        try check(writeStatus, "close the take", path: path)
        if case .failure(let errno) = Syscall.sync(io.fd) {
            throw MediaError("sync the take to disk", path: path, code: slate_averror(errno.rawValue))
        }
        do {
            try folder.sync()
        } catch {
            throw MediaError(
                "sync the take to disk", path: error.subject ?? folder.path, code: slate_averror(error.errno.rawValue))
        }
    }

    /// Lets the muxer read back what it wrote, which faststart's second pass does,
    /// through `io`'s descriptor at a position of its own (`DescriptorIO.reader`),
    /// and nothing else: libav opens no file itself, by path or otherwise, and
    /// writing stays `io`'s.
    private static func readBackThroughDescriptor(_ context: UnsafeMutablePointer<AVFormatContext>, _ io: DescriptorIO) {
        context.pointee.opaque = Unmanaged.passUnretained(io).toOpaque()
        context.pointee.io_open = { context, pb, _, flags, _ in
            guard let context, let pb, flags & AVIO_FLAG_WRITE == 0 else { return slate_averror(EPERM) }
            let io = Unmanaged<DescriptorIO>.fromOpaque(context.pointee.opaque).takeUnretainedValue()
            do throws(MediaError) {
                let reader = try DescriptorIO.reader(of: io, path: "the file written")
                pb.pointee = reader.context
                // Released by io_close2, which frees the context with it.
                _ = Unmanaged.passRetained(reader)
                return 0
            } catch {
                return error.code
            }
        }
        context.pointee.io_close2 = { _, pb in
            guard let opaque = pb?.pointee.opaque else { return 0 }
            Unmanaged<DescriptorIO>.fromOpaque(opaque).release()
            return 0
        }
    }

    /// Frees the muxer and closes the file.
    private func close() {
        guard let context else { return }
        context.pointee.pb = nil
        avformat_free_context(context)
        self.context = nil
        io.close()
    }
}
