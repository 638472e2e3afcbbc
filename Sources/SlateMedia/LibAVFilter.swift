import CAV
import SlateCore
import SlateSystem

/// libavfilter, loaded when a filter graph is first built (`dlopen`), not with
/// Slate: it pulls in some thirty libraries of its own (text to speech, SVG,
/// OCR, Vulkan rendering, ...), 13 MB of memory a rig that records without
/// zoom, mirroring or a turned thumbnail never needs. Its functions, as
/// `FilterGraph` calls them.
struct LibAVFilter {
    typealias Graph = UnsafeMutablePointer<AVFilterGraph>
    typealias Context = UnsafeMutablePointer<AVFilterContext>
    typealias InOut = UnsafeMutablePointer<AVFilterInOut>

    let graphAlloc: @convention(c) () -> Graph?
    let getByName: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    let graphCreateFilter:
        @convention(c) (
            UnsafeMutablePointer<Context?>?, UnsafePointer<AVFilter>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeMutableRawPointer?, Graph?
        ) -> Int32
    let inOutAlloc: @convention(c) () -> InOut?
    let inOutFree: @convention(c) (UnsafeMutablePointer<InOut?>?) -> Void
    let graphParse:
        @convention(c) (
            Graph?, UnsafePointer<CChar>?, UnsafeMutablePointer<InOut?>?, UnsafeMutablePointer<InOut?>?, UnsafeMutableRawPointer?
        )
            -> Int32
    let graphConfig: @convention(c) (Graph?, UnsafeMutableRawPointer?) -> Int32
    let graphFree: @convention(c) (UnsafeMutablePointer<Graph?>?) -> Void
    let sourceAddFrame: @convention(c) (Context?, UnsafeMutablePointer<AVFrame>?, Int32) -> Int32
    let sinkGetFrame: @convention(c) (Context?, UnsafeMutablePointer<AVFrame>?) -> Int32
    let graphSendCommand:
        @convention(c) (
            Graph?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int32,
            Int32
        ) -> Int32

    /// The library of the major version Slate was built against, loaded once; or why it cannot be.
    static let loaded: Result<LibAVFilter, MediaError> = {
        let name = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"
        let library: SharedLibrary
        do {
            library = try SharedLibrary(name)
        } catch {
            return .failure(MediaError("load libavfilter", path: name, message: "\(error)"))
        }
        /// The function `symbol`, of the type its field has.
        func function<T>(_ symbol: String) throws(MediaError) -> T {
            guard let address = library.symbol(symbol) else {
                throw MediaError("load libavfilter", path: name, message: "it has no \(symbol)")
            }
            return unsafeBitCast(address, to: T.self)
        }
        do throws(MediaError) {
            return .success(
                LibAVFilter(
                    graphAlloc: try function("avfilter_graph_alloc"), getByName: try function("avfilter_get_by_name"),
                    graphCreateFilter: try function("avfilter_graph_create_filter"),
                    inOutAlloc: try function("avfilter_inout_alloc"), inOutFree: try function("avfilter_inout_free"),
                    graphParse: try function("avfilter_graph_parse_ptr"), graphConfig: try function("avfilter_graph_config"),
                    graphFree: try function("avfilter_graph_free"), sourceAddFrame: try function("av_buffersrc_add_frame_flags"),
                    sinkGetFrame: try function("av_buffersink_get_frame"),
                    graphSendCommand: try function("avfilter_graph_send_command")))
        } catch {
            return .failure(error)
        }
    }()
}
