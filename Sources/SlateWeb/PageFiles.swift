import Hummingbird
import NIOCore
import SlateSystem

/// The page's files (HTML, CSS, JavaScript), read once at start from the
/// resources built beside the executable (`Slate_SlateWeb.resources/Page`),
/// or from `<prefix>/share/slate/page` for an installed one, or `SLATE_PAGE`.
struct PageFiles: Sendable {
    /// A file and its content type.
    struct File: Sendable {
        var type: String
        var body: ByteBuffer
    }

    static let names: [String: String] = [
        "index.html": "text/html; charset=utf-8", "page.css": "text/css; charset=utf-8",
        "page.js": "text/javascript; charset=utf-8", "prompter.html": "text/html; charset=utf-8",
        "prompter.js": "text/javascript; charset=utf-8", "pair.html": "text/html; charset=utf-8",
        "pair.js": "text/javascript; charset=utf-8", "awake.mp4": "video/mp4",
    ]

    let files: [String: File]

    /// The file `name` as a response; 404 when there is none.
    func response(_ name: String) -> Response {
        guard let file = files[name] else { return JSONResponse.error("no such page", status: .notFound) }
        return Response(
            status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: file.body))
    }

    /// Reads every file of `names` from the first folder that has `index.html`.
    static func load() throws -> PageFiles {
        let candidates = folderCandidates(
            executable: Syscall.executablePath ?? "", override: Syscall.environmentValue("SLATE_PAGE"))
        guard let folder = candidates.first(where: { Syscall.isFolder($0) && Syscall.isFile($0 + "/index.html") }) else {
            throw PageFilesMissing(looked: candidates)
        }
        var files: [String: File] = [:]
        for (name, type) in names {
            let bytes = try FileReading.bytes(atPath: folder + "/" + name)
            files[name] = File(type: type, body: ByteBuffer(bytes: bytes))
        }
        return PageFiles(files: files)
    }

    static func folderCandidates(executable: String, override: String?) -> [String] {
        var candidates: [String] = []
        if let override, !override.isEmpty { candidates.append(override) }
        let bin = Folder.split(executable).folder
        candidates.append(bin + "/Slate_SlateWeb.resources/Page")
        let prefix = Folder.split(bin).folder
        candidates.append((prefix == "/" ? "" : prefix) + "/share/slate/page")
        return candidates
    }
}

/// The page's files are nowhere Slate looks for them.
struct PageFilesMissing: Error, CustomStringConvertible {
    var looked: [String]

    var description: String {
        "the page's files are missing: looked in \(looked.joined(separator: ", ")); set SLATE_PAGE to their folder"
    }
}
