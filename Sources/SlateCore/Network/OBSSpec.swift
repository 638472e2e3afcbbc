/// The `obs` section: the OBS Studio instances `obs` actions go to, through
/// obs-websocket 5, and the file holding their password.
public struct OBSSpec: Hashable, Sendable {
    /// `ws://HOST:PORT` of each OBS; every `obs` action goes to all of them.
    public var targets: [String]
    /// A file only its owner may read (0600) holding obs-websocket's password.
    public var passwordFile: String?

    public init(targets: [String], passwordFile: String? = nil) {
        self.targets = targets
        self.passwordFile = passwordFile
    }

    /// Why `url` is not an obs-websocket address, or nil when it is one.
    public static func targetProblem(_ url: String) -> String? {
        do {
            _ = try OBSAddress(url)
            return nil
        } catch .notWebSocket {
            return "an OBS target is ws://HOST:PORT, as OBS's WebSocket Server Settings show it, not '\(url)'"
        } catch {
            return "an OBS target names its host and port, ws://127.0.0.1:4455, not '\(url)'"
        }
    }
}

/// One obs-websocket request (`StartRecord`, `CreateRecordChapter`, any
/// request of the protocol) and its data.
public struct OBSRequest: Hashable, Sendable {
    public var requestType: String
    public var data: JSONValue?

    public init(requestType: String, data: JSONValue? = nil) {
        self.requestType = requestType
        self.data = data
    }

    /// `obs StartRecord`, `obs CreateRecordChapter Verse 2` (its chapterName),
    /// `obs SetCurrentProgramScene {"sceneName": "Wide"}`: the request, or why it is none.
    public static func parse(_ text: String) -> Result<OBSRequest, ActionTextError> {
        let parts = text.trimmingSpaces.split(separator: " ", maxSplits: 1)
        let name = parts.first.map(String.init) ?? ""
        guard !name.isEmpty, name.count <= 64, name.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else {
            return .failure(ActionTextError("obs takes an obs-websocket request's name, such as StartRecord, not '\(name)'"))
        }
        guard parts.count > 1 else { return .success(OBSRequest(requestType: name)) }
        let rest = String(parts[1]).trimmingSpaces
        if rest.hasPrefix("{") {
            guard let data = try? JSONValue(parsing: rest), case .object = data else {
                return .failure(ActionTextError("obs \(name)'s data must be one JSON object, such as {\"sceneName\": \"Wide\"}"))
            }
            return .success(OBSRequest(requestType: name, data: data))
        }
        guard name == "CreateRecordChapter" else {
            return .failure(
                ActionTextError("obs \(name) takes its data as a JSON object, such as obs \(name) {\"key\": \"value\"}"))
        }
        return .success(OBSRequest(requestType: name, data: .object(["chapterName": .string(rest)])))
    }

    /// `StartRecord`, `CreateRecordChapter {"chapterName":"Verse 2"}`.
    public var description: String {
        data.map { requestType + " " + JSONLine.encode($0) } ?? requestType
    }
}
