import CAV
import Glibc

/// A libav I/O context over a file descriptor Slate opened (`avio_alloc_context`),
/// so libav reads and writes files without ever opening one by path. Owns the
/// descriptor: `close()` (or deinit) frees the context and closes it.
final class DescriptorIO {
    let fd: Int32
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    /// Wraps `fd`, open for reading or (`writing`) for writing; errors name `path`.
    init(fd: Int32, writing: Bool, path: String) throws(MediaError) {
        self.fd = fd
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self) else {
            Glibc.close(fd)
            throw MediaError("set up file input and output", path: path, code: slate_averror(ENOMEM))
        }
        // The descriptor itself is the opaque value, plus one so that 0 is not a null pointer.
        let opaque = UnsafeMutableRawPointer(bitPattern: Int(fd) + 1)
        context = avio_alloc_context(
            buffer, size, writing ? 1 : 0, opaque,
            { opaque, buffer, size in
                let count = retryingInterrupts { Glibc.read(DescriptorIO.descriptor(opaque), buffer, Int(size)) }
                if count < 0 { return slate_averror(errno) }
                return count == 0 ? slate_averror_eof() : Int32(count)
            },
            { opaque, buffer, size in
                var offset = 0
                while offset < Int(size) {
                    let count = retryingInterrupts {
                        Glibc.write(DescriptorIO.descriptor(opaque), UnsafeRawPointer(buffer!) + offset, Int(size) - offset)
                    }
                    if count <= 0 { return slate_averror(count < 0 ? errno : EIO) }
                    offset += count
                }
                return size
            },
            { opaque, offset, whence in
                let fd = DescriptorIO.descriptor(opaque)
                if whence & AVSEEK_SIZE != 0 {
                    var status = stat()
                    return fstat(fd, &status) == 0 ? Int64(status.st_size) : Int64(slate_averror(errno))
                }
                let position = lseek(fd, __off_t(offset), whence & ~AVSEEK_FORCE)
                return position >= 0 ? Int64(position) : Int64(slate_averror(errno))
            })
        guard context != nil else {
            av_free(buffer)
            Glibc.close(fd)
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
        Glibc.close(fd)
    }

    private static func descriptor(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
        Int32(Int(bitPattern: opaque) - 1)
    }
}
