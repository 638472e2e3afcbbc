import SlateCore
import SlateSystem

/// The V4L2 capture devices present now, with their card names and their
/// /dev/v4l/by-id and by-path links, for `CameraCandidates`.
public enum CameraDirectory {
    public static func present(devices: String = "/dev") -> [CameraCandidates.Present] {
        var links: [String: [String]] = [:]
        for folder in ["by-id", "by-path"] {
            let path = devices + "/v4l/" + folder
            for name in Syscall.folderEntries(path) {
                let link = path + "/" + name
                guard let target = Syscall.resolvedPath(link) else { continue }
                links[target, default: []].append(link)
            }
        }
        return V4L2Camera.devicePaths(in: devices).compactMap { path in
            guard let camera = try? V4L2Camera(path: path) else { return nil }
            return CameraCandidates.Present(path: path, card: camera.card, links: links[path, default: []].sorted())
        }
    }
}

extension CameraDirectory {
    /// A name for the camera at `path` that outlasts a replug: its
    /// /dev/v4l/by-id link's name, else its card name (`vivid`), made safe
    /// for a file name.
    public static func stableName(of path: String, card: String, devices: String = "/dev") -> String {
        let folder = devices + "/v4l/by-id"
        let link = Syscall.folderEntries(folder).sorted().first { Syscall.resolvedPath(folder + "/" + $0) == path }
        let name = link ?? card
        let safe = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        return safe.isEmpty || safe.hasPrefix(".") ? "camera" + safe : safe
    }
}
