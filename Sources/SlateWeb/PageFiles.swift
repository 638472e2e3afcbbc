import Hummingbird
import NIOCore
import SlateCore
import SlateSystem

/// The page's files (HTML, CSS, JavaScript), read once at start from
/// `SLATE_PAGE`, or `<prefix>/share/slate/page` for an installed slate, or
/// the source tree's `Sources/SlateWeb/Page` for one built in it (under `.build`).
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
        "pair.js": "text/javascript; charset=utf-8", "prompter-clock.js": "text/javascript; charset=utf-8",
        "awake.mp4": "video/mp4", "tally.html": "text/html; charset=utf-8", "tally.js": "text/javascript; charset=utf-8",
    ]

    let files: [String: File]

    /// The file `name` as a response, or the one range of it `range` asks
    /// for (a phone's player asks so for the keep-awake video); 404 when there is none.
    func response(_ name: String, range: String? = nil) -> Response {
        guard let file = files[name] else { return JSONResponse.error("no such page", status: .notFound) }
        var headers: HTTPFields = [.contentType: file.type, .cacheControl: "no-cache", .acceptRanges: "bytes"]
        let size = file.body.readableBytes
        switch ByteRange.parse(range, size: Int64(size)) {
        case .whole:
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.body))
        case .part(let first, let last):
            headers[.contentRange] = "bytes \(first)-\(last)/\(size)"
            let part = file.body.getSlice(at: file.body.readerIndex + Int(first), length: Int(last - first + 1)) ?? file.body
            return Response(status: .partialContent, headers: headers, body: ResponseBody(byteBuffer: part))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
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
        let prefix = Folder.split(bin).folder
        candidates.append((prefix == "/" ? "" : prefix) + "/share/slate/page")
        // A build in the source tree: ROOT/.build/CONFIG/slate or ROOT/.build/TRIPLE/CONFIG/slate.
        var folder = bin
        while folder.count > 1 {
            let (parent, name) = Folder.split(folder)
            if name == ".build" {
                candidates.append((parent == "/" ? "" : parent) + "/Sources/SlateWeb/Page")
                break
            }
            folder = parent
        }
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
