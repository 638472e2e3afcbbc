import CAV
import SlateSystem
import SystemPackage

/// A media file open for reading with libavformat: by path, or through a
/// descriptor Slate opened in a checked folder (`DescriptorIO`).
final class MediaInput {
    let path: String
    private(set) var context: UnsafeMutablePointer<AVFormatContext>
    private var io: DescriptorIO?

    /// Opens the file at `path`; errors name `operation`.
    convenience init(path: String, operation: String) throws(MediaError) {
        try self.init(path: path, io: nil, operation: operation)
    }

    /// Opens the file `name` of `folder`, never through a link.
    convenience init(_ name: String, in folder: Folder, operation: String) throws(MediaError) {
        let path = folder.file(name)
        let fd: FileDescriptor
        do {
            fd = try folder.openForReading(name)
        } catch {
            throw MediaError(operation, path: path, code: slate_averror(error.errno.rawValue))
        }
        try self.init(path: path, io: try DescriptorIO(fd: fd, writing: false, path: path), operation: operation)
    }

    /// Reads `fd` (named `path` in errors), which it then owns, as one of the
    /// container `formats` only (libavformat's demuxer names, comma-separated):
    /// a file of another kind, a playlist say, is probed but not demuxed, and
    /// no demuxer opens another file or URL.
    convenience init(fd: FileDescriptor, path: String, formats: String, operation: String) throws(MediaError) {
        let io = try DescriptorIO(fd: fd, writing: false, path: path)
        try self.init(path: path, io: io, formats: formats, operation: operation)
    }

    private init(path: String, io: DescriptorIO?, formats: String? = nil, operation: String) throws(MediaError) {
        _ = LibAV.setUp
        self.path = path
        self.io = io
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let status = retryingInterruptedOpen {
            opened = avformat_alloc_context()
            guard let allocated = opened else { return slate_averror(ENOMEM) }
            if let io {
                allocated.pointee.pb = io.context
                allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            }
            var options: OpaquePointer?
            defer { av_dict_free(&options) }
            if let formats {
                // Other containers are not demuxed, and no demuxer opens another file or URL.
                let status = min(
                    av_dict_set(&options, "format_whitelist", formats, 0), av_dict_set(&options, "protocol_whitelist", "none", 0))
                guard status >= 0 else { return status }
            }
            return avformat_open_input(&opened, path, nil, &options)
        }
        try check(status, operation, path: path)
        guard let opened else { throw MediaError(operation, path: path, code: slate_averror(ENOMEM)) }
        context = opened
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = self.context
        avformat_close_input(&context)
        io?.close()
    }
}
