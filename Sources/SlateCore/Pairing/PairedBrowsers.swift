/// A browser paired with the rig: what `slate pair --list` shows, and the
/// SHA-256 of its secret (the secret itself lives only in its cookie).
public struct PairedBrowser: Codable, Equatable, Sendable {
    /// Eight hexadecimal digits: the name `slate pair --revoke` takes.
    public var id: String
    /// What the browser called itself (its User-Agent, shortened), or the name typed on the page.
    public var name: String
    /// When it paired, in seconds since 1970.
    public var paired: Int64
    /// The address it paired from.
    public var address: String
    /// The SHA-256 of its secret, in hexadecimal.
    public var digest: String

    public init(id: String, name: String, paired: Int64, address: String, digest: String) {
        self.id = id
        self.name = name
        self.paired = paired
        self.address = address
        self.digest = digest
    }
}

/// The browsers paired with the rig, as the state folder's
/// `paired-browsers.json` keeps them: at most `limit`.
public struct PairedBrowsers: Codable, Equatable, Sendable {
    /// The most browsers paired at once.
    public static let limit = 32
    /// The longest name kept, in characters.
    public static let nameLimit = 40

    public private(set) var browsers: [PairedBrowser]

    public init(_ browsers: [PairedBrowser] = []) { self.browsers = browsers }

    /// The browser whose id is `id`.
    public func browser(id: String) -> PairedBrowser? { browsers.first { $0.id == id } }

    /// Why no browser can be added: the list is full; nil when one can.
    public var full: String? {
        browsers.count < Self.limit
            ? nil : "\(Self.limit) browsers are paired already: slate pair --revoke ID one of them (slate pair --list)"
    }

    /// Adds `browser`, or says why not: the list is full, or its id is taken.
    public mutating func add(_ browser: PairedBrowser) -> String? {
        if let full { return full }
        guard self.browser(id: browser.id) == nil else { return "the id \(browser.id) is taken" }
        browsers.append(browser)
        return nil
    }

    /// Removes the browser whose id is `id` (or starts with it, when only one
    /// does), and returns it; nil when none or several match.
    public mutating func revoke(_ id: String) -> PairedBrowser? {
        if let index = browsers.firstIndex(where: { $0.id == id }) { return browsers.remove(at: index) }
        let starting = browsers.indices.filter { !id.isEmpty && browsers[$0].id.hasPrefix(id) }
        return starting.count == 1 ? browsers.remove(at: starting[0]) : nil
    }

    /// `name` as kept: printable, on one line, at most `nameLimit` characters; nil when nothing is left.
    public static func name(_ name: String) -> String? {
        let printable = name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        var kept = String(String.UnicodeScalarView(printable)).trimmingSpaces
        if kept.count > nameLimit { kept = String(kept.prefix(nameLimit - 1)) + "…" }
        return kept.isEmpty ? nil : kept
    }

    /// A short name for the browser a User-Agent header names: `iPhone Safari`, `Android Chrome`, `Linux Firefox`.
    public static func name(userAgent: String) -> String {
        let systems = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Mac OS X", "Mac"), ("Windows", "Windows"), ("Linux", "Linux"),
        ]
        let browsers = [
            ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("Edg/", "Edge"), ("CriOS/", "Chrome"),
            ("HeadlessChrome/", "Headless Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"), ("curl/", "curl"),
        ]
        let system = systems.first { userAgent.contains($0.0) }?.1
        let browser = browsers.first { userAgent.contains($0.0) }?.1
        let words = [system, browser].compactMap { $0 }
        return words.isEmpty ? "a browser" : words.joined(separator: " ")
    }
}
