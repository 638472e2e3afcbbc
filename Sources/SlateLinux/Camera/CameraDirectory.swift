import Glibc
import SlateCore

/// The V4L2 capture devices present now, with their card names and their
/// /dev/v4l/by-id and by-path links, for `CameraCandidates`.
public enum CameraDirectory {
    public static func present(devices: String = "/dev") -> [CameraCandidates.Present] {
        var links: [String: [String]] = [:]
        for folder in ["by-id", "by-path"] {
            let path = devices + "/v4l/" + folder
            for name in entries(of: path) {
                let link = path + "/" + name
                guard let target = realpath(link, nil) else { continue }
                defer { free(target) }
                links[String(cString: target), default: []].append(link)
            }
        }
        return V4L2Camera.devicePaths(in: devices).compactMap { path in
            guard let camera = try? V4L2Camera(path: path) else { return nil }
            return CameraCandidates.Present(path: path, card: camera.card, links: links[path, default: []].sorted())
        }
    }

    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }
}
