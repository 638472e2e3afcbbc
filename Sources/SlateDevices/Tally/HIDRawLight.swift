import CSlateShim
import SlateCore
import SlateSystem
import SystemPackage

/// A USB busylight's hidraw node, open for writing its reports.
public final class HIDRawLight {
    public let path: String
    public let model: BusylightModel
    private let fd: FileDescriptor

    /// Opens `path` (a busylight of `model`) for writing.
    public init(path: String, model: BusylightModel) throws(OperationError) {
        fd = try errnoResult {
            try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec])
        }.value("open", on: path, to: "open the busylight")
        self.path = path
        self.model = model
    }

    deinit { try? fd.close() }

    /// Shows `light`: the model's report, as a feature report or written out.
    public func show(_ light: TallyLight) throws(OperationError) {
        var report = model.report(light)
        switch report.kind {
        case .feature:
            let result = Syscall.ioctl(fd, UInt(slate_hidiocsfeature(report.bytes.count)), bytes: &report.bytes)
            if case .failure(let errno) = result {
                throw OperationError(
                    "set the busylight's colour", cause: SystemCallError("HIDIOCSFEATURE", subject: path, errno: errno))
            }
        case .output:
            let written = try errnoResult {
                try report.bytes.withUnsafeBytes { try fd.write($0) }
            }.value("write", on: path, to: "set the busylight's colour")
            guard written == report.bytes.count else {
                throw OperationError(
                    "set the busylight's colour", cause: SystemCallError("write", subject: path, errno: .ioError))
            }
        }
    }
}
