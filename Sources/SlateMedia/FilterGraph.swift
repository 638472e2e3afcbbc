import CAV
import SlateCore
import SlateSystem

/// A libavfilter graph for I420 frames of one size: libavfilter's `buffer`
/// source, the filters of a chain in libavfilter's own syntax (`hflip`,
/// `scale=640:360,hue=s=0`), then `buffersink`, in yuv420p. The chain
/// must give one frame for each frame in (no filter that drops, adds or delays
/// frames). Filters named in the chain (`crop@zoom`) take commands between frames.
/// libavfilter is loaded with the first graph (`LibAVFilter`).
final class FilterGraph {
    /// The chain, as given.
    let chain: String
    let width: Int
    let height: Int
    // Optional, so that deinit frees what a failed init allocated.
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var input: UnsafeMutablePointer<AVFrame>?
    private var output: UnsafeMutablePointer<AVFrame>?
    /// libavfilter's functions, loaded with the first graph.
    private let av: LibAVFilter

    /// Builds the graph for `width`x`height` frames; errors name the chain.
    init(width: Int, height: Int, chain: String) throws(MediaError) {
        _ = LibAV.setUp
        av = try LibAVFilter.loaded.get()
        self.chain = chain
        self.width = width
        self.height = height
        let fail = { (code: Int32) in MediaError("set up the filters", path: chain, code: code) }
        graph = av.graphAlloc()
        input = av_frame_alloc()
        output = av_frame_alloc()
        guard let graph, let input, output != nil else { throw fail(slate_averror(ENOMEM)) }
        input.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        input.pointee.width = Int32(width)
        input.pointee.height = Int32(height)
        try check(av_frame_get_buffer(input, 0), "set up the filters", path: chain)

        let arguments =
            "video_size=\(width)x\(height):pix_fmt=\(AV_PIX_FMT_YUV420P.rawValue):time_base=1/1000000:pixel_aspect=1/1"
        // The graph's worker threads start with its first filter: they block every signal, as the codecs' do.
        let status = withSignalsBlocked {
            var status = av.graphCreateFilter(&source, av.getByName("buffer"), "in", arguments, nil, graph)
            if status >= 0 {
                status = av.graphCreateFilter(&sink, av.getByName("buffersink"), "out", nil, nil, graph)
            }
            return status
        }
        guard status >= 0, let source, let sink else { throw fail(status < 0 ? status : slate_averror(ENOMEM)) }

        var outputs = av.inOutAlloc()
        var inputs = av.inOutAlloc()
        defer {
            av.inOutFree(&outputs)
            av.inOutFree(&inputs)
        }
        guard let chainInput = outputs, let chainOutput = inputs else { throw fail(slate_averror(ENOMEM)) }
        // The chain's open ends: its input is the source's output `in`, its output the sink's input `out`.
        chainInput.pointee.name = av_strdup("in")
        chainInput.pointee.filter_ctx = source
        chainOutput.pointee.name = av_strdup("out")
        chainOutput.pointee.filter_ctx = sink
        try check(
            av.graphParse(graph, chain + ",format=yuv420p", &inputs, &outputs, nil), "set up the filters",
            path: chain)
        try check(av.graphConfig(graph, nil), "set up the filters", path: chain)
    }

    deinit {
        av.graphFree(&graph)
        av_frame_free(&input)
        av_frame_free(&output)
    }

    /// Runs one frame through the chain; the frame out keeps `frame`'s time.
    func apply(_ frame: VideoFrame) throws(MediaError) -> VideoFrame {
        guard let input, let output, let source, let sink else {
            throw MediaError("filter a frame", path: chain, code: slate_averror(ENOMEM))
        }
        guard frame.width == width, frame.height == height else {
            throw MediaError(
                "filter a frame", path: chain,
                message: "the frame is \(frame.width)x\(frame.height), the filters take \(width)x\(height)")
        }
        // The graph may still hold the previous frame's buffer: write into one of our own.
        try check(av_frame_make_writable(input), "filter a frame", path: chain)
        Self.copy(frame.y, into: input.pointee.data.0, stride: input.pointee.linesize.0, width: width, rows: height)
        Self.copy(
            frame.u, into: input.pointee.data.1, stride: input.pointee.linesize.1, width: frame.chromaWidth,
            rows: frame.chromaHeight)
        Self.copy(
            frame.v, into: input.pointee.data.2, stride: input.pointee.linesize.2, width: frame.chromaWidth,
            rows: frame.chromaHeight)
        input.pointee.pts = frame.time.microseconds
        try check(
            av.sourceAddFrame(source, input, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "filter a frame", path: chain)
        try check(av.sinkGetFrame(sink, output), "filter a frame", path: chain)
        defer { av_frame_unref(output) }
        let outWidth = Int(output.pointee.width), outHeight = Int(output.pointee.height)
        let chromaWidth = (outWidth + 1) / 2, chromaHeight = (outHeight + 1) / 2
        return VideoFrame(
            width: outWidth, height: outHeight,
            y: Self.plane(output.pointee.data.0, stride: output.pointee.linesize.0, width: outWidth, rows: outHeight),
            u: Self.plane(output.pointee.data.1, stride: output.pointee.linesize.1, width: chromaWidth, rows: chromaHeight),
            v: Self.plane(output.pointee.data.2, stride: output.pointee.linesize.2, width: chromaWidth, rows: chromaHeight),
            time: frame.time)
    }

    /// Sends `command` with `argument` to the filter named `filter` in the chain
    /// (`crop@zoom`), for the frames after this (`avfilter_graph_send_command`).
    func send(_ command: String, _ argument: String, to filter: String) throws(MediaError) {
        try check(
            av.graphSendCommand(graph, filter, command, argument, nil, 0, 0),
            "send '\(command) \(argument)' to \(filter)",
            path: chain)
    }

    private static func copy(_ plane: [UInt8], into base: UnsafeMutablePointer<UInt8>?, stride: Int32, width: Int, rows: Int) {
        guard let base else { return }
        plane.withUnsafeBufferPointer { bytes in
            for row in 0..<rows { (base + row * Int(stride)).update(from: bytes.baseAddress! + row * width, count: width) }
        }
    }

    private static func plane(_ base: UnsafeMutablePointer<UInt8>?, stride: Int32, width: Int, rows: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * rows) { bytes, count in
            count = width * rows
            guard let base else {
                bytes.initialize(repeating: 128)
                return
            }
            for row in 0..<rows {
                (bytes.baseAddress! + row * width).initialize(from: base + row * Int(stride), count: width)
            }
        }
    }
}

extension ExportFilter {
    /// The filter as libavfilter filters, nil for `none`.
    ///
    /// - `mono`: no colour, contrast softened by 15% around mid-grey, like
    ///   iOS's Mono effect (CIPhotoEffectMono).
    /// - `sepia`: the colour replaced by a brown tone: Cb 18 below neutral and Cr three
    ///   fifths of that above at every brightness, the hue of the classic sepia
    ///   matrix (about 38°).
    var filterChain: String? {
        switch self {
        case .none: nil
        case .mono: "hue=s=0,eq=contrast=0.85"
        case .sepia: "lutyuv=y=val:u=110:v=139"
        }
    }
}
