import CSlateShim
import CV4L2
import SlateSystem
import SystemPackage

/// Whether this machine has the device a hardware encoder runs on, found
/// without opening the encoder: a DRM render node for VAAPI and QSV, the
/// NVIDIA driver's control node for NVENC, a V4L2 memory-to-memory device
/// for V4L2 M2M. An encoder whose device is missing is not probed.
public enum EncoderDevices {
    /// Why `encoder` cannot run here, when its device is missing; nil for a
    /// software encoder, or when its device is there (it may still fail to open).
    public static func missing(for encoder: String, devices: String = "/dev") -> String? {
        if encoder.hasSuffix("_vaapi") || encoder.hasSuffix("_qsv") {
            let nodes = (128..<136).map { "\(devices)/dri/renderD\($0)" }
            return nodes.contains(where: Syscall.exists) ? nil : "no GPU render node (\(devices)/dri/renderD128 and on)"
        }
        if encoder.hasSuffix("_nvenc") {
            return Syscall.exists(devices + "/nvidiactl") ? nil : "no NVIDIA driver (\(devices)/nvidiactl)"
        }
        if encoder.hasSuffix("_v4l2m2m") {
            return V4L2Camera.devicePaths(in: devices).contains(where: isMemoryToMemory)
                ? nil : "no V4L2 memory-to-memory device (\(devices)/video*)"
        }
        return nil
    }

    /// Whether the V4L2 node at `path` is a memory-to-memory device (`VIDIOC_QUERYCAP`).
    static func isMemoryToMemory(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec]) else {
            return false
        }
        defer { try? fd.close() }
        var cap = v4l2_capability()
        guard case .success = Syscall.ioctl(fd, slate_vidioc_querycap(), &cap) else { return false }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        return caps & UInt32(V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE) != 0
    }
}
