import FoundationEssentials
import Hummingbird
import NIOPosix
import SlateCore
import SlateSystem

/// The teleprompter's page, its script as lines, and its text to edit: a
/// save writes the profile's script file and has the daemon read it again, so
/// every screen shows it at once (unless the profile says `edit: false`).
struct PrompterRoutes: Sendable {
    /// The largest save read: the script's limit, with room for JSON's escapes.
    static let bodyLimit = PrompterSpec.scriptLimit * 2

    let board: StatusBoard
    let page: PageFiles
    let saves = ScriptSaves()

    func add(to router: Router<PageContext>) {
        router.get("/prompter") { _, _ in self.page.response("prompter.html") }
        router.get("/prompter/script.json") { _, _ in
            guard let script = self.board.script else { return Self.noPrompter }
            return JSONResponse.raw(script)
        }
        router.get("/prompter/source") { _, _ in await self.source() }
        router.put("/prompter/source") { request, _ in await self.save(request) }
    }

    private static var noPrompter: Response { JSONResponse.error("the profile has no prompter", status: .notFound) }

    /// The script's text as the editor shows it and sends it back.
    private struct Source: Codable {
        /// The file's name, beside the profile.
        var file: String?
        /// The version the text is (read), or was edited from (sent; omitted, the text replaces any).
        var version: String?
        var text: String
    }

    /// What a save answers.
    private struct Saved: Encodable {
        var version: String
        var lines: Int
        var cues: Int
    }

    /// The script file's text as it is now, read off the page's event loop.
    private func source() async -> Response {
        guard let source = board.prompter else { return Self.noPrompter }
        let read: Result<String, ScriptSaves.Failure>
        do {
            read = try await NIOThreadPool.singleton.runIfActive { saves.read(at: source.path) }
        } catch {
            return JSONResponse.error("the rig is stopping", status: .serviceUnavailable)
        }
        switch read {
        case .success(let text):
            return JSONResponse.ok(
                Source(file: Folder.split(source.path).name, version: PrompterScript.version(of: text), text: text))
        case .failure(let failure): return JSONResponse.error(failure.description, status: .internalServerError)
        }
    }

    private func save(_ request: Request) async -> Response {
        guard let source = board.prompter else { return Self.noPrompter }
        guard source.editable else {
            return JSONResponse.error(
                "the profile keeps the script from being edited here (prompter.edit: false)", status: .forbidden)
        }
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            return JSONResponse.error(
                #"send {"text": ..., "version": ...} as JSON (Content-Type: application/json)"#, status: .unsupportedMediaType)
        }
        let body: ByteBuffer
        switch await RequestLimits<PageContext>.body(of: request, limit: Self.bodyLimit) {
        case .success(let read): body = read
        case .failure(let refusal): return refusal.response
        }
        guard let sent = try? JSONDecoder().decode(Source.self, from: Data(body.readableBytesView)) else {
            return JSONResponse.error(
                #"send {"text": "the script", "version": "the version it was edited from"}"#, status: .badRequest)
        }
        guard sent.text.utf8.count <= PrompterSpec.scriptLimit else {
            return JSONResponse.error(
                "the script is over \(FileReading.sizeText(PrompterSpec.scriptLimit)), the most the prompter reads",
                status: .contentTooLarge)
        }
        let saved: Result<String, ScriptSaves.Failure>
        do {
            saved = try await NIOThreadPool.singleton.runIfActive {
                saves.save(sent.text, over: sent.version, at: source.path)
            }
        } catch {
            return JSONResponse.error("the rig is stopping", status: .serviceUnavailable)
        }
        switch saved {
        case .failure(let failure):
            if case .changed = failure { return JSONResponse.error(failure.description, status: .conflict) }
            return JSONResponse.error(failure.description, status: .internalServerError)
        case .success(let version):
            if case .refused(let reason) = await board.ask(.readScript) {
                return JSONResponse.error("saved, but the rig did not read it: \(reason)", status: .internalServerError)
            }
            // The profile was reloaded meanwhile and names another script.
            guard let now = board.prompter, now.path == source.path else {
                let file = Folder.split(source.path).name
                return JSONResponse.error(
                    "saved to \(file), but the profile now names another script: reload the editor", status: .conflict)
            }
            return JSONResponse.ok(Saved(version: version, lines: now.script.lines.count, cues: now.script.cues.count))
        }
    }
}
