/// Where a rig's sounds come from: the profile's `sounds.files`, then the
/// built-in sounds folder. Pure path arithmetic; nothing is read here.
public struct SoundLibrary: Sendable {
    public var spec: SoundSpec
    /// The folder of the built-in sounds (`shutter.wav`, ...), or nil when none was found.
    public var builtInFolder: String?
    /// The profile's folder, for relative paths in `sounds.files`; nil for the working directory.
    public var profileFolder: String?

    public init(spec: SoundSpec = SoundSpec(), builtInFolder: String?, profileFolder: String? = nil) {
        self.spec = spec
        self.builtInFolder = builtInFolder
        self.profileFolder = profileFolder
    }

    /// The file that plays for sound `name`: its `sounds.files` entry (relative to the
    /// profile's folder), else the built-in `NAME.wav`.
    public func path(of name: String) throws(SoundLookupError) -> String {
        if let file = spec.files[name] {
            return Self.resolve(file, in: profileFolder)
        }
        guard SoundSpec.builtIn.contains(name) else {
            throw SoundLookupError(
                sound: name,
                message:
                    "unknown sound '\(name)' (built in: \(YAMLReader.list(SoundSpec.builtIn)); others need an entry in sounds.files)"
            )
        }
        guard let builtInFolder else {
            throw SoundLookupError(
                sound: name,
                message: "the folder of built-in sounds was not found; set SLATE_SOUNDS to the folder holding \(name).wav")
        }
        return Self.resolve(name + ".wav", in: builtInFolder)
    }

    /// `path` if absolute, else `path` inside `folder`.
    public static func resolve(_ path: String, in folder: String?) -> String {
        guard !path.hasPrefix("/"), let folder, !folder.isEmpty, folder != "." else { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// The folder part of `path` (`rigs/a.yaml` -> `rigs`, `/a.yaml` -> `/`), or nil for a bare file name.
    public static func folder(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Where to look for the built-in sounds, in order: `override` (the `SLATE_SOUNDS`
    /// environment variable), `PREFIX/share/slate/sounds` for an executable in `PREFIX/bin`,
    /// and `sounds` in the source checkout of an executable built under its `.build` folder.
    public static func builtInFolderCandidates(executable: String, override: String?) -> [String] {
        var candidates: [String] = []
        if let override, !override.isEmpty { candidates.append(override) }
        if let bin = folder(of: executable), let prefix = folder(of: bin) {
            candidates.append(prefix == "/" ? "/share/slate/sounds" : prefix + "/share/slate/sounds")
        }
        let parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        if let build = parts.firstIndex(of: ".build") {
            candidates.append(build == parts.startIndex ? "sounds" : parts[..<build].joined(separator: "/") + "/sounds")
        }
        return candidates
    }
}

/// A sound name that resolves to no file.
public struct SoundLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    public var sound: String
    public var message: String

    public init(sound: String, message: String) {
        self.sound = sound
        self.message = message
    }

    public var description: String { message }
}

/// The sounds waiting to play, as a player keeps them: a short queue, so that a
/// burst of requests cannot pile up sounds that would play long after their events.
public struct SoundQueue<Element: Sendable>: Sendable {
    /// The most sounds that wait; a new one beyond that drops the oldest waiting.
    public let capacity: Int
    public private(set) var pending: [Element] = []

    public init(capacity: Int = 2) { self.capacity = max(1, capacity) }

    public var isEmpty: Bool { pending.isEmpty }

    /// What a `push` did: the waiting sounds it dropped, and whether the sound
    /// playing now should stop.
    public struct Push {
        public var dropped: [Element]
        public var stopsCurrent: Bool
    }

    /// Queues `element`. With `cut`, it replaces everything that waits and stops
    /// the sound playing now; otherwise it waits its turn, dropping the oldest
    /// waiting sound when the queue is full.
    public mutating func push(_ element: Element, cut: Bool) -> Push {
        var dropped: [Element] = []
        if cut {
            dropped = pending
            pending.removeAll()
        } else if pending.count >= capacity {
            dropped = Array(pending.prefix(pending.count - capacity + 1))
            pending.removeFirst(dropped.count)
        }
        pending.append(element)
        return Push(dropped: dropped, stopsCurrent: cut)
    }

    /// The next sound to play.
    public mutating func pop() -> Element? { pending.isEmpty ? nil : pending.removeFirst() }

    /// Empties the queue, returning what waited.
    public mutating func removeAll() -> [Element] {
        defer { pending.removeAll() }
        return pending
    }
}
