import Glibc

/// A shared library loaded at run time (`dlopen`, `RTLD_NOW | RTLD_LOCAL`),
/// for one Slate needs only now and then; it stays loaded for the life of the process.
public final class SharedLibrary {
    public let name: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `name` (a file name the dynamic linker looks up, such as `libavfilter.so.8`).
    public init(_ name: String) throws(OperationError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw OperationError("load \(name)", cause: SystemCallError("dlopen", subject: reason, errno: .noSuchFileOrDirectory))
        }
        self.name = name
        self.handle = handle
    }

    /// The address of `symbol`, nil when the library has none.
    public func symbol(_ symbol: String) -> UnsafeMutableRawPointer? { dlsym(handle, symbol) }
}
