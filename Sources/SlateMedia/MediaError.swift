import CAV
import SlateSystem

/// A failed libav call: the operation, the file or encoder it was about, and
/// libav's own message for the error code.
public struct MediaError: Error, CustomStringConvertible {
    public var operation: String
    /// The file, or the encoder's name when no file is involved.
    public var path: String
    /// The libav error code (negative), or 0 when the failure is not a libav code.
    public var code: Int32
    /// libav's message (av_strerror), or why the operation could not be done.
    public var message: String

    public init(_ operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = MediaError.message(for: code)
    }

    public init(_ operation: String, path: String, message: String) {
        self.operation = operation
        self.path = path
        self.code = 0
        self.message = message
    }

    /// The file could not be written because its disk is full (ENOSPC).
    public var isDiskFull: Bool { code == slate_averror(ENOSPC) }

    /// The failure without the path: `cannot open the output: Permission denied`.
    public var reason: String { "cannot \(operation): \(message)" }

    public var description: String { "\(path): \(reason)" }

    /// libav's text for an error code (av_strerror).
    public static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "libav error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Throws a `MediaError` when a libav call returns a negative code; returns the code otherwise.
@discardableResult
func check(_ code: Int32, _ operation: String, path: String) throws(MediaError) -> Int32 {
    if code < 0 { throw MediaError(operation, path: path, code: code) }
    return code
}

/// Retries a libav call that opens a file while a signal interrupts it (`AVERROR(EINTR)`).
func retryingInterruptedOpen(_ call: () -> Int32) -> Int32 {
    while true {
        let code = call()
        if code != slate_averror(EINTR) { return code }
    }
}
