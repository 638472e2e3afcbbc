/// The fuzzer's bytes as text: invalid UTF-8 becomes U+FFFD, as when a
/// recording is read leniently.
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}
