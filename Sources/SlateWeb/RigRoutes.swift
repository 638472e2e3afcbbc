import FoundationEssentials
import Hummingbird
import SlateCore
import SlateSystem

/// The page server's routes: the page, the status, the event stream, take
/// thumbnails, the framing preview and actions. Every answer comes from the
/// status board or the preview feed; nothing here touches the camera, the
/// encoder or the rig machine.
struct RigRoutes: Sendable {
    /// The largest action request body read.
    static let bodyLimit = 4096
    /// What separates the preview's pictures.
    static let boundary = "slate-preview"
    /// The routes whose responses stream for as long as the client reads.
    static let streamPaths: Set<String> = ["/events", "/preview.mjpg"]

    let board: StatusBoard
    let preview: PreviewFeed
    let page: PageFiles
    let access: AccessCheck<PageContext>

    func add(to router: Router<PageContext>) {
        router.get("/") { _, _ in self.page.response("index.html") }
        router.get("/tally") { _, _ in self.page.response("tally.html") }
        // The pages have addresses of their own; their scripts, styles and video are served by name.
        for name in page.files.keys where !name.hasSuffix(".html") {
            router.get("/\(name)") { request, _ in self.page.response(name, range: request.headers[.range]) }
        }
        router.get("/status.json") { _, _ in self.status() }
        router.get("/events") { request, _ in self.events(lasting: self.access.lasting(request)) }
        router.get("/preview.mjpg") { request, _ in self.previewPictures(lasting: self.access.lasting(request)) }
        router.get("/takes/:number/thumbnail.jpg") { _, context in
            self.thumbnail(context.parameters.get("number", as: Int.self))
        }
        router.get("/takes/:number/video") { request, context in
            try await self.video(context.parameters.get("number", as: Int.self), request: request, context: context)
        }
        router.post("/actions") { request, _ in await self.action(request) }
    }

    private func status() -> Response {
        guard let status = board.status else { return JSONResponse.error("the rig is starting", status: .serviceUnavailable) }
        return JSONResponse.ok(status)
    }

    /// Server-Sent Events: the status and the recent lines, then each line
    /// and each status change, until the credential it was opened with is
    /// revoked (`lasting`, asked at each heartbeat).
    private func events(lasting: @escaping @Sendable () -> Bool) -> Response {
        let stream = board.subscribe()
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            for await event in stream {
                if event.name == "heartbeat" && !lasting() { break }
                try await writer.write(ByteBuffer(string: "event: \(event.name)\ndata: \(event.data)\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: body)
    }

    /// The framing preview as multipart JPEG, for as long as the client reads
    /// it (the take pipeline makes pictures only while someone does) and the
    /// credential it was opened with holds (`lasting`, asked at each picture).
    private func previewPictures(lasting: @escaping @Sendable () -> Bool) -> Response {
        let pictures = preview.watch()
        let body = ResponseBody { writer in
            for await jpeg in pictures {
                guard lasting() else { break }
                var part = ByteBuffer(
                    string: "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
                part.writeBytes(jpeg)
                part.writeString("\r\n")
                try await writer.write(part)
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "multipart/x-mixed-replace; boundary=\(Self.boundary)", .cacheControl: "no-store"],
            body: body)
    }

    private func thumbnail(_ number: Int?) -> Response {
        guard let number, let path = board.thumbnail(ofTake: number) else {
            return JSONResponse.error("no such take, or it has no thumbnail", status: .notFound)
        }
        do {
            let bytes = try FileReading.bytes(atPath: path)
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        } catch {
            return JSONResponse.error("take \(number)'s thumbnail cannot be read", status: .notFound)
        }
    }

    /// Take `number`'s file, or the part of it a `Range` field asks for (so
    /// a phone's player seeks); `?download` makes it an attachment.
    private func video(_ number: Int?, request: Request, context: PageContext) async throws -> Response {
        guard let number, let path = board.video(ofTake: number), let size = FileReading.size(atPath: path) else {
            return JSONResponse.error("no such take", status: .notFound)
        }
        // The list changed since the page asked: take N is another file now.
        if let file = request.uri.queryParameters["file"], String(file) != path.split(separator: "/").last.map(String.init) {
            return JSONResponse.error("take \(number) is no longer \(file.prefix(100))", status: .notFound)
        }
        var headers: HTTPFields = [.contentType: "video/mp4", .acceptRanges: "bytes", .cacheControl: "private, no-cache"]
        if request.uri.queryParameters["download"] != nil {
            let name = String(path.split(separator: "/").last ?? "take.mp4")
            headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        }
        switch ByteRange.parse(request.headers[.range], size: size) {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .whole:
            headers[.contentLength] = "\(size)"
            guard size > 0 else { return Response(status: .ok, headers: headers) }
            let body = try await Self.files.loadFile(path: path, range: 0...Int(size - 1), context: context)
            return Response(status: .ok, headers: headers, body: body)
        case .part(let first, let last):
            headers[.contentRange] = "bytes \(first)-\(last)/\(size)"
            headers[.contentLength] = "\(last - first + 1)"
            let body = try await Self.files.loadFile(path: path, range: Int(first)...Int(last), context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
    }

    /// Reads take files on NIO's thread pool, off the page's event loop.
    private static let files = FileIO()

    /// What `POST /actions` answers when the action ran.
    private struct ActionAnswer: Encodable {
        var action: String
        var lines: [ReportLine]
    }

    private func action(_ request: Request) async -> Response {
        let body: ByteBuffer
        switch await RequestLimits<PageContext>.body(of: request, limit: Self.bodyLimit) {
        case .success(let read): body = read
        case .failure(let refusal): return refusal.response
        }
        let asked: ActionBody
        switch ActionBody.decode(Array(body.readableBytesView)) {
        case .success(let body): asked = body
        case .failure(let error): return JSONResponse.error(error.description, status: .badRequest)
        }
        switch await board.ask(asked.action) {
        case .ran(let lines): return JSONResponse.ok(ActionAnswer(action: asked.action, lines: lines))
        case .refused(let reason): return JSONResponse.error(reason, status: .badRequest)
        }
    }
}
