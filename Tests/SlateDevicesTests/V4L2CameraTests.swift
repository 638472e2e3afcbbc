import Foundation
import Glibc
import SlateDevices
import SlateSystem
import SystemPackage
import Testing

/// What runs without a camera; streaming from vivid is tests/vm/scenario-camera.sh.
@Suite struct V4L2CameraTests {
    @Test func aMissingNodeNamesTheOperationAndThePath() {
        do {
            _ = try V4L2Camera(path: "/nonexistent/video9")
            Issue.record("opened a missing node")
        } catch {
            guard case .system(let system) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(system.errno == .noSuchFileOrDirectory)
            #expect("\(error)" == "/nonexistent/video9: cannot open: No such file or directory (ENOENT)")
            #expect(!error.isDeviceGone)
        }
    }

    @Test func aNodeThatIsNoVideoDeviceFailsAtQueryCap() {
        do {
            _ = try V4L2Camera(path: "/dev/null")
            Issue.record("/dev/null opened as a camera")
        } catch {
            #expect(
                "\(error)" == "/dev/null: cannot query capabilities: VIDIOC_QUERYCAP: Inappropriate ioctl for device (ENOTTY)")
            #expect(error.path == "/dev/null")
        }
    }

    @Test func aVanishedDeviceSaysSo() {
        let cause = SystemCallError("VIDIOC_DQBUF", subject: "/dev/video0", errno: .noSuchDevice)
        #expect("\(cause)" == "/dev/video0: VIDIOC_DQBUF: No such device (ENODEV)")
        let error = CameraError.system(OperationError("dequeue a frame", cause: cause))
        #expect(error.isDeviceGone && error.path == "/dev/video0")
        #expect(
            "\(error)"
                == "/dev/video0: cannot dequeue a frame: VIDIOC_DQBUF: No such device (ENODEV); the camera is gone (unplugged or its driver unbound)"
        )
        #expect(
            "\(CameraError.notACaptureDevice(path: "/dev/video1", card: "vivid"))"
                == "/dev/video1: 'vivid' is not a video capture device")
    }

    @Test func videoNodesInNumberOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-v4l2-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["video10", "video2", "video0", "videoX", "vbi0", "media0"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
        }
        #expect(V4L2Camera.devicePaths(in: folder.path) == ["video0", "video2", "video10"].map { folder.path + "/" + $0 })
        #expect(V4L2Camera.devicePaths(in: "/nonexistent").isEmpty)
    }
}
