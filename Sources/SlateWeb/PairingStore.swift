import Crypto
import FoundationEssentials
import SlateCore
import SlateSystem
import Synchronization

/// The pairing files in Slate's state folder, which `slate run` and
/// `slate pair` share: `pairing-code` holds the open code and
/// `paired-browsers.json` the browsers paired, both readable by their owner
/// only. A paired browser's cookie is `ID.SECRET`; the file keeps the
/// secret's SHA-256, and is read again whenever it changed, so a browser
/// `slate pair --revoke` removed is refused from its next request.
public final class PairingStore: Sendable {
    public static let codeFile = "pairing-code"
    public static let browsersFile = "paired-browsers.json"
    /// The addresses the last `slate run` served its page at, one a line, for `slate pair`.
    public static let linksFile = "page-links"
    /// The file whose `flock` `slate run` and `slate pair` take to change the others.
    static let lockFile = "pairing.lock"
    /// The cookie a paired browser carries.
    public static let cookieName = "slate-pair"

    /// Why a pairing file cannot be used.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let folder: Folder
    private struct Cache {
        var desk = PairingDesk()
        var browsers = PairedBrowsers()
        var version: FileVersion?
    }
    private let cache = Mutex(Cache())

    /// The store in `path` (made with mode 0700 when missing).
    public init(folder path: String) throws(Failure) {
        do {
            folder = try Folder(path, creating: 0o700)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// Opens a new code, good for `PairingCode.lifetime` from `now`, in place of the open one.
    public func issueCode(now: Int64) throws(Failure) -> PairingCode {
        let code = PairingCode(random: SecretFile.randomNumber(), now: now)
        try locked { () throws(Failure) in
            do {
                try FileWriting.atomicWrite(code.line + "\n", to: Self.codeFile, in: folder, mode: 0o600)
            } catch {
                throw Failure(description: "\(error)")
            }
        }
        return code
    }

    /// Runs `body` holding the pairing files' lock, which `slate pair` and
    /// `slate run` take alike: a revoke and a pairing never write over each other.
    private func locked<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        do {
            return try folder.whileLocked(Self.lockFile) { () throws -> T in try body() }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The open code; nil when there is none (or its file is not one).
    public func openCode() -> PairingCode? {
        guard folder.contains(Self.codeFile) else { return nil }
        return (try? SecretFile.load(folder.file(Self.codeFile))).flatMap(PairingCode.parse)
    }

    /// Keeps the addresses the page is served at, for `slate pair` to show.
    public func saveLinks(_ links: [String]) throws(Failure) {
        do {
            try FileWriting.atomicWrite(links.map { $0 + "\n" }.joined(), to: Self.linksFile, in: folder, mode: 0o600)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The addresses the last `slate run` served its page at.
    public func links() -> [String] {
        guard folder.contains(Self.linksFile), let text = try? SecretFile.load(folder.file(Self.linksFile)) else { return [] }
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("http://") }
    }

    /// The browsers paired, as the file has them.
    public func browsers() throws(Failure) -> PairedBrowsers {
        guard folder.contains(Self.browsersFile) else { return PairedBrowsers() }
        let text: String
        do {
            text = try SecretFile.load(folder.file(Self.browsersFile))
        } catch {
            throw Failure(description: "\(error)")
        }
        do {
            return try JSONDecoder().decode(PairedBrowsers.self, from: Data(text.utf8))
        } catch {
            throw Failure(description: "\(folder.file(Self.browsersFile)): not a list of paired browsers: \(error)")
        }
    }

    /// Removes the browser `id` names (its id, or the start of only one's);
    /// nil when none does.
    public func revoke(_ id: String) throws(Failure) -> PairedBrowser? {
        try locked { () throws(Failure) -> PairedBrowser? in
            var browsers = try browsers()
            guard let revoked = browsers.revoke(id) else { return nil }
            try save(browsers)
            return revoked
        }
    }

    /// What a browser that sent `code` met; paired, the browser's record and
    /// the value of its cookie. The pairing files' lock makes pairings one at
    /// a time (across threads too: each takes it on a descriptor of its own);
    /// the cache's Mutex, which every request with a cookie takes, is held
    /// only to count the try, never across a wait or a write.
    func pair(code: String, name: String?, userAgent: String, address: String, now: Int64)
        -> Result<(browser: PairedBrowser, cookie: String), Failure>
    {
        let result = Result { () throws(Failure) -> (browser: PairedBrowser, cookie: String) in
            try locked { () throws(Failure) -> (browser: PairedBrowser, cookie: String) in
                var browsers = try browsers()
                if let full = browsers.full { throw Failure(description: full) }
                let open = openCode()
                let answer = cache.withLock { $0.desk.redeem(code, open: open, now: now) }
                if answer.endsCode { try? folder.remove(Self.codeFile) }
                if let refusal = answer.refusal { throw Failure(description: refusal) }
                let secret = SecretFile.randomHex(bytes: 32)
                let browser = PairedBrowser(
                    id: SecretFile.randomHex(bytes: 4),
                    name: name.flatMap(PairedBrowsers.name) ?? PairedBrowsers.name(userAgent: userAgent), paired: now,
                    address: address, digest: Self.digest(secret))
                if let refusal = browsers.add(browser) { throw Failure(description: refusal) }
                try save(browsers)
                return (browser, "\(browser.id).\(secret)")
            }
        }
        cache.withLock { $0.version = nil }
        return result
    }

    /// The paired browser whose cookie is `cookie`, when its secret is right.
    func browser(cookie: String) -> PairedBrowser? {
        let parts = cookie.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].utf8.count <= 16, parts[1].utf8.count <= 128 else { return nil }
        return cache.withLock { cache in
            let version = folder.version(of: Self.browsersFile)
            if version != cache.version || version == nil {
                cache.browsers = (try? browsers()) ?? PairedBrowsers()
                cache.version = version
            }
            guard let browser = cache.browsers.browser(id: String(parts[0])) else { return nil }
            return ConstantTime.equal(Self.digest(String(parts[1])), browser.digest) ? browser : nil
        }
    }

    private func save(_ browsers: PairedBrowsers) throws(Failure) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let text = String(decoding: try encoder.encode(browsers), as: UTF8.self)
            try FileWriting.atomicWrite(text + "\n", to: Self.browsersFile, in: folder, mode: 0o600)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The SHA-256 of `secret`, in hexadecimal.
    static func digest(_ secret: String) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
