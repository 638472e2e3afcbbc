import CAV
import SlateSystem
import SystemPackage

/// A libav I/O context over a file descriptor Slate opened (`avio_alloc_context`),
/// so libav reads and writes files without ever opening one by path. It can
/// seek (its seek callback), as an MP4 needs to write its index.
///
/// Owns the descriptor (`close()`, or deinit, frees the context and closes it),
/// except a `reader(of:)`, which reads another one's file at its own position.
final class DescriptorIO {
    let fd: FileDescriptor
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private let ownsDescriptor: Bool
    /// Where a reader of another one's file reads next (`pread`): the
    /// descriptor's own offset is the writer's.
    private var position: Int64?

    /// Wraps `fd`, open for reading or (`writing`) for writing; errors name `path`.
    convenience init(fd: FileDescriptor, writing: Bool, path: String) throws(MediaError) {
        try self.init(fd: fd, writing: writing, owning: true, position: nil, path: path)
    }

    /// A reader of `io`'s file at a position of its own, from the start: what
    /// writes there through `io` (flushed) it reads, and it moves neither
    /// `io`'s position nor the descriptor's. `io` keeps the descriptor.
    static func reader(of io: DescriptorIO, path: String) throws(MediaError) -> DescriptorIO {
        try DescriptorIO(fd: io.fd, writing: false, owning: false, position: 0, path: path)
    }

    private init(fd: FileDescriptor, writing: Bool, owning: Bool, position: Int64?, path: String) throws(MediaError) {
        self.fd = fd
        ownsDescriptor = owning
        self.position = position
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self) else {
            if owning { try? fd.close() }
            throw MediaError("set up file input and output", path: path, code: slate_averror(ENOMEM))
        }
        context = avio_alloc_context(
            buffer, size, writing ? 1 : 0, Unmanaged.passUnretained(self).toOpaque(),
            { opaque, buffer, size in DescriptorIO.instance(opaque).read(buffer, Int(size)) },
            { opaque, buffer, size in DescriptorIO.instance(opaque).write(buffer, Int(size)) },
            { opaque, offset, whence in DescriptorIO.instance(opaque).seek(offset, whence) })
        guard context != nil else {
            av_free(buffer)
            if owning { try? fd.close() }
            throw MediaError("set up file input and output", path: path, code: slate_averror(ENOMEM))
        }
    }

    deinit { close() }

    /// Flushes what is buffered (when writing), frees the context and closes
    /// the descriptor if it is this one's.
    func close() {
        guard let context else { return }
        if context.pointee.write_flag != 0 { avio_flush(context) }
        av_freep(&context.pointee.buffer)
        avio_context_free(&self.context)
        if ownsDescriptor { try? fd.close() }
    }

    private static func instance(_ opaque: UnsafeMutableRawPointer?) -> DescriptorIO {
        Unmanaged<DescriptorIO>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private func read(_ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int) -> Int32 {
        let target = UnsafeMutableRawBufferPointer(start: buffer, count: size)
        let result: Result<Int, Errno>
        if let position {
            result = errnoResult { try fd.read(fromAbsoluteOffset: position, into: target) }
            if case .success(let count) = result { self.position = position + Int64(count) }
        } else {
            result = errnoResult { try fd.read(into: target) }
        }
        switch result {
        case .success(0): return slate_averror_eof()
        case .success(let count): return Int32(count)
        case .failure(let errno): return slate_averror(errno.rawValue)
        }
    }

    private func write(_ buffer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        var offset = 0
        while offset < size {
            let source = UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer!) + offset, count: size - offset)
            switch errnoResult({ try fd.write(source) }) {
            case .success(0): return slate_averror(EIO)
            case .success(let count): offset += count
            case .failure(let errno): return slate_averror(errno.rawValue)
            }
        }
        return Int32(size)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return answer(errnoResult { try fd.stat().size }) }
        let origin = whence & ~AVSEEK_FORCE
        guard let position else {
            return answer(errnoResult { try fd.seek(offset: offset, from: FileDescriptor.SeekOrigin(rawValue: origin)) })
        }
        let base: Int64
        switch origin {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END:
            switch errnoResult({ try fd.stat().size }) {
            case .success(let size): base = size
            case .failure(let errno): return Int64(slate_averror(errno.rawValue))
            }
        default: return Int64(slate_averror(EINVAL))
        }
        guard base + offset >= 0 else { return Int64(slate_averror(EINVAL)) }
        self.position = base + offset
        return base + offset
    }

    /// A position or size for libav, or its error code.
    private func answer(_ result: Result<Int64, Errno>) -> Int64 {
        switch result {
        case .success(let value): return value
        case .failure(let errno): return Int64(slate_averror(errno.rawValue))
        }
    }
}
