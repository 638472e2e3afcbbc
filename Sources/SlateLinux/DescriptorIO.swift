import CAV
import SystemPackage

/// A libav I/O context over a file descriptor Slate opened (`avio_alloc_context`),
/// so libav reads and writes files without ever opening one by path. Owns the
/// descriptor: `close()` (or deinit) frees the context and closes it.
final class DescriptorIO {
    let fd: FileDescriptor
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    /// Wraps `fd`, open for reading or (`writing`) for writing; errors name `path`.
    init(fd: FileDescriptor, writing: Bool, path: String) throws(MediaError) {
        self.fd = fd
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self) else {
            try? fd.close()
            throw MediaError("set up file input and output", path: path, code: slate_averror(ENOMEM))
        }
        // The descriptor itself is the opaque value, plus one so that 0 is not a null pointer.
        let opaque = UnsafeMutableRawPointer(bitPattern: Int(fd.rawValue) + 1)
        context = avio_alloc_context(
            buffer, size, writing ? 1 : 0, opaque,
            { opaque, buffer, size in
                let target = UnsafeMutableRawBufferPointer(start: buffer, count: Int(size))
                switch errnoResult({ try DescriptorIO.descriptor(opaque).read(into: target) }) {
                case .success(0): return slate_averror_eof()
                case .success(let count): return Int32(count)
                case .failure(let errno): return slate_averror(errno.rawValue)
                }
            },
            { opaque, buffer, size in
                var offset = 0
                while offset < Int(size) {
                    let source = UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer!) + offset, count: Int(size) - offset)
                    switch errnoResult({ try DescriptorIO.descriptor(opaque).write(source) }) {
                    case .success(0): return slate_averror(EIO)
                    case .success(let count): offset += count
                    case .failure(let errno): return slate_averror(errno.rawValue)
                    }
                }
                return size
            },
            { opaque, offset, whence in
                let fd = DescriptorIO.descriptor(opaque)
                let position: Result<Int64, Errno>
                if whence & AVSEEK_SIZE != 0 {
                    position = errnoResult { try fd.stat().size }
                } else {
                    let origin = FileDescriptor.SeekOrigin(rawValue: whence & ~AVSEEK_FORCE)
                    position = errnoResult { try fd.seek(offset: offset, from: origin) }
                }
                switch position {
                case .success(let value): return value
                case .failure(let errno): return Int64(slate_averror(errno.rawValue))
                }
            })
        guard context != nil else {
            av_free(buffer)
            try? fd.close()
            throw MediaError("set up file input and output", path: path, code: slate_averror(ENOMEM))
        }
    }

    deinit { close() }

    /// Flushes what is buffered (when writing), frees the context and closes the descriptor.
    func close() {
        guard let context else { return }
        if context.pointee.write_flag != 0 { avio_flush(context) }
        av_freep(&context.pointee.buffer)
        avio_context_free(&self.context)
        try? fd.close()
    }

    private static func descriptor(_ opaque: UnsafeMutableRawPointer?) -> FileDescriptor {
        FileDescriptor(rawValue: Int32(Int(bitPattern: opaque) - 1))
    }
}
