import Foundation
import SlateCore
import SlateSystem
import Testing

@testable import SlateWeb

/// The prompter's script edited through the page server on a real socket:
/// who may save, the budgets, a save over a version that changed, and the file
/// written whole with its mode kept.
extension RigServerTests {
    /// `text` as the daemon publishes it, from the file at `path`.
    static func source(at path: String) throws -> PrompterSource {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return PrompterSource(path: path, text: text, script: PrompterScript(text: text, width: 36))
    }

    /// A daemon that reads the script again when asked, as `slate run` does (or refuses to).
    func scriptReader(_ board: StatusBoard, path: String, refusing: Bool = false) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                for request in board.takeRequests() where request.asked == .readScript {
                    if refusing {
                        request.answer(.refused("the script is not valid UTF-8"))
                    } else {
                        board.publish(prompter: try? Self.source(at: path))
                        request.answer(.ran([]))
                    }
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    func put(_ server: RigServer, _ body: String, token: String? = RigServerTests.token) async throws -> (Int, String) {
        let (status, answer, _) = try await fetch(
            server, "/prompter/source", method: "PUT", body: body, token: token,
            headers: ["Content-Type": "application/json"])
        return (status, answer)
    }

    static func json(_ value: [String: String]) -> String {
        String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
    }

    /// A script `talk.md` holding `text` in a folder of its own, removed after `body`; its folder and path.
    func withScript(_ text: String, _ body: (String, String) async throws -> Void) async throws {
        let folder = NSTemporaryDirectory() + "slate-script-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try text.write(toFile: folder + "/talk.md", atomically: false, encoding: .utf8)
        try await body(folder, folder + "/talk.md")
    }

    @Test func theScriptIsSavedOverTheVersionItWasEditedFrom() async throws {
        try await withScript("# One\nHello.\n") { folder, path in try await savedOver(folder: folder, path: path) }
    }

    func savedOver(folder: String, path: String) async throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let (server, board) = try await serving()
        #expect(try await fetch(server, "/prompter/source").0 == 404)
        board.publish(prompter: try Self.source(at: path))
        let daemon = scriptReader(board, path: path)
        defer { daemon.cancel() }
        let read = try await fetch(server, "/prompter/source")
        let first = PrompterScript.version(of: "# One\nHello.\n")
        #expect(read.0 == 200 && read.1.contains(#""file":"talk.md""#) && read.1.contains(#""version":"\#(first)""#))
        #expect(read.1.contains(##""text":"# One\nHello.\n""##))

        // Guarded like actions: a credential, JSON, and the budgets.
        let edit = Self.json(["text": "# One\nHello.\n---\n# Two\nBye.\n", "version": first])
        #expect(try await put(server, edit, token: nil).0 == 401)
        let form = try await fetch(server, "/prompter/source", method: "PUT", body: "text=x", token: Self.token)
        #expect(form.0 == 415)
        #expect(try await put(server, "{").0 == 400)
        let overLimit = try await put(server, Self.json(["text": String(repeating: "a", count: PrompterSpec.scriptLimit + 1)]))
        #expect(overLimit.0 == 413 && overLimit.1.contains("over 1 MiB"), "\(overLimit.1)")
        let overBody = try await put(server, Self.json(["text": String(repeating: "\u{1}", count: PrompterSpec.scriptLimit)]))
        #expect(overBody.0 == 413 && overBody.1.contains("(Content-Length: "), "\(overBody.1)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# One\nHello.\n")

        // Saved: the file holds the text, its mode kept, and the daemon has read it.
        let saved = try await put(server, edit)
        let second = PrompterScript.version(of: "# One\nHello.\n---\n# Two\nBye.\n")
        #expect(saved.0 == 200 && saved.1.contains(#""version":"\#(second)""#) && saved.1.contains(#""cues":2"#), "\(saved.1)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# One\nHello.\n---\n# Two\nBye.\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(board.prompter?.script.version == second)
        #expect(try await fetch(server, "/prompter/script.json").1.contains(#""version":"\#(second)""#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["talk.md"])

        // Edited from the first version, which is no longer there: refused, the file kept;
        // the same text sent again (a second tap) is saved already.
        let stale = try await put(server, Self.json(["text": "lost", "version": first]))
        #expect(stale.0 == 409 && stale.1.contains("talk.md changed since this editor read it"), "\(stale.1)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# One\nHello.\n---\n# Two\nBye.\n")
        #expect(try await put(server, edit).0 == 200)

        // Edited on the rig, unknown to the daemon: the editor reads the file, and saves over it.
        try "On the rig.\n".write(toFile: path, atomically: false, encoding: .utf8)
        let fresh = try await fetch(server, "/prompter/source")
        let onRig = PrompterScript.version(of: "On the rig.\n")
        #expect(fresh.1.contains(#""version":"\#(onRig)""#) && fresh.1.contains(#""text":"On the rig.\n""#), "\(fresh.1)")
        #expect(try await put(server, Self.json(["text": "Over it.\n", "version": onRig])).0 == 200)
        // Without a version, a script's save replaces whatever is there.
        #expect(try await put(server, Self.json(["text": "Plain.\n"])).0 == 200)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Plain.\n")

        // A link is not replaced by a file.
        try FileManager.default.removeItem(atPath: path)
        try "Elsewhere.\n".write(toFile: folder + "/real.md", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder + "/real.md")
        let link = try await put(server, Self.json(["text": "x"]))
        #expect(link.0 == 500 && link.1.contains("symbolic link"), "\(link.1)")
        #expect(try String(contentsOfFile: folder + "/real.md", encoding: .utf8) == "Elsewhere.\n")
        try await stop(server, board)
    }

    @Test func aProfileCanKeepTheScriptFromBeingEdited() async throws {
        let (server, board) = try await serving()
        board.publish(
            prompter: PrompterSource(
                path: "/nonexistent/talk.md", text: "", script: PrompterScript(text: "", width: 36), editable: false))
        let refused = try await put(server, Self.json(["text": "x"]))
        #expect(refused.0 == 403 && refused.1.contains("prompter.edit: false"), "\(refused.1)")
        try await stop(server, board)
    }

    @Test func aSaveTheRigCannotReadIsSaidSo() async throws {
        try await withScript("Hello.\n") { _, path in
            let (server, board) = try await serving()
            board.publish(prompter: try Self.source(at: path))
            let daemon = scriptReader(board, path: path, refusing: true)
            defer { daemon.cancel() }
            let answer = try await put(server, Self.json(["text": "Bye.\n"]))
            #expect(answer.0 == 500 && answer.1.contains("saved, but the rig did not read it: the script is not valid UTF-8"))
            try await stop(server, board)
        }
    }
}
