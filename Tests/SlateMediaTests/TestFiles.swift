import SlateCore
import SlateMedia
import SlateSystem

/// Files the tests write by path, through the same checked folders Slate uses.
extension TakeWriter {
    /// A writer for the new file at `path`, in its folder (which the test made).
    convenience init(creating path: String, parameters: VideoStreamParameters, rotation: Int = 0) throws {
        let (folderPath, name) = Folder.split(path)
        let folder = try Folder(folderPath)
        try self.init(
            fd: try folder.create(name, mode: 0o644), named: name, in: folder, parameters: parameters, rotation: rotation)
    }
}

extension JPEGThumbnail {
    /// Writes `frame` as the JPEG at `path`, in its folder (which the test made).
    static func write(_ frame: VideoFrame, toPath path: String) throws {
        let (folderPath, name) = Folder.split(path)
        try write(frame, named: name, in: try Folder(folderPath), mode: 0o644)
    }
}
