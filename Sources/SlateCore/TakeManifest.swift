import Yams

/// The takes of a rig's work folder, as `takes.json` lists them. It survives
/// restarts: a take still marked recording after a crash is recovered from its
/// fragmented file.
public struct TakeManifest: Hashable, Sendable {
    /// One take: its files (relative to the work folder) and what was recorded.
    public struct Take: Hashable, Sendable {
        public var id: String
        public var file: String
        public var thumbnail: String?
        /// Wall-clock start, microseconds since 1970 (UTC).
        public var started: Int64
        public var duration: Duration
        public var frames: Int
        public var dropped: Int
        public var codec: String
        public var recording: Bool
        /// The export that holds this take, once it is verified: the take's files
        /// are being deleted (a crash in between is finished by `recover`).
        public var exported: String?
        /// Why the take is kept after an export that holds only part of it (it
        /// read short); such a take is not exported again.
        public var kept: String?

        public init(
            id: String, file: String, thumbnail: String?, started: Int64, duration: Duration = .zero, frames: Int = 0,
            dropped: Int = 0, codec: String, recording: Bool, exported: String? = nil, kept: String? = nil
        ) {
            self.id = id
            self.file = file
            self.thumbnail = thumbnail
            self.started = started
            self.duration = duration
            self.frames = frames
            self.dropped = dropped
            self.codec = codec
            self.recording = recording
            self.exported = exported
            self.kept = kept
        }

        /// Finished, and neither exported nor kept after a short export.
        public var isExportable: Bool { !recording && exported == nil && kept == nil }
    }

    public static let fileName = "takes.json"
    public var takes: [Take]

    /// An id no take of the folder has: one more than the largest numeric id,
    /// four digits at least (`0001`).
    public func nextID() -> String {
        let largest = takes.compactMap { Int($0.id) }.filter { $0 < 1_000_000_000 }.max() ?? 0
        return Self.id(number: largest + 1)
    }

    /// A numeric id, four digits at least: `0007`.
    public static func id(number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    public init(takes: [Take] = []) { self.takes = takes }

    /// The manifest as JSON, one take per line.
    public var json: String {
        let lines = takes.map { take -> String in
            var object = JSONObject()
            object.string("id", take.id)
            object.string("file", take.file)
            if let thumbnail = take.thumbnail { object.string("thumbnail", thumbnail) } else { object.null("thumbnail") }
            object.number("started", String(take.started))
            object.string("start", UTCTime.format(microseconds: take.started))
            object.number("duration", Instant.formatSeconds(take.duration.microseconds, decimals: 6))
            object.number("frames", String(take.frames))
            object.number("dropped", String(take.dropped))
            object.string("codec", take.codec)
            object.bool("recording", take.recording)
            if let exported = take.exported { object.string("exported", exported) }
            if let kept = take.kept { object.string("kept", kept) }
            return "    " + object.closed
        }
        return "{\n  \"version\": 1,\n  \"takes\": [\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n")
            + "  ]\n}\n"
    }

    /// Reads `takes.json`; errors name the file, line and column.
    public static func parse(_ text: String, file: String) -> Result<TakeManifest, ProfileErrors> {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            return .failure(ProfileErrors(diagnostics: [ProfileLoader.yamlDiagnostic(error, file: file)]))
        }
        var reader = YAMLReader(file: file)
        var manifest = TakeManifest()
        if let root, let top = reader.mapping(root, "the manifest") {
            reader.checkKeys(top, allowed: ["version", "takes"], in: "the manifest")
            if let version = top.first(where: { $0.key == "version" }) {
                _ = reader.integer(version.value, "version", in: 1...1)
            }
            if let takes = top.first(where: { $0.key == "takes" }), let items = reader.sequence(takes.value, "takes") {
                manifest.takes = items.compactMap { take($0, &reader) }
            }
        }
        return reader.diagnostics.isEmpty ? .success(manifest) : .failure(ProfileErrors(diagnostics: reader.diagnostics))
    }

    private static func take(_ node: Node, _ reader: inout YAMLReader) -> Take? {
        guard let pairs = reader.mapping(node, "a take") else { return nil }
        let keys = [
            "id", "file", "thumbnail", "started", "start", "duration", "frames", "dropped", "codec", "recording", "exported",
            "kept",
        ]
        reader.checkKeys(pairs, allowed: keys, in: "a take")
        let value = { (key: String) in pairs.first { $0.key == key }?.value }
        guard let idNode = value("id"), let fileNode = value("file"), let startedNode = value("started") else {
            reader.error(node, "a take needs id, file and started")
            return nil
        }
        guard let id = reader.string(idNode, "id"), let file = reader.string(fileNode, "file"),
            let started = reader.integer(startedNode, "started", in: 0...Int.max)
        else { return nil }
        guard TakeManifest.isPlainName(file) else {
            reader.error(fileNode, "a take's file must be a file name in the work folder, not '\(file)'")
            return nil
        }
        var thumbnail: String?
        if let node = value("thumbnail"), case .scalar(let scalar) = node, scalar.string != "null" {
            thumbnail = scalar.string
            if !TakeManifest.isPlainName(scalar.string) {
                reader.error(node, "a take's thumbnail must be a file name in the work folder")
                return nil
            }
        }
        let seconds = value("duration").flatMap { reader.number($0, "duration", in: 0...1e9) } ?? 0
        return Take(
            id: id, file: file, thumbnail: thumbnail, started: Int64(started),
            duration: .microseconds(Int64((seconds * 1_000_000).rounded())),
            frames: value("frames").flatMap { reader.integer($0, "frames", in: 0...Int.max) } ?? 0,
            dropped: value("dropped").flatMap { reader.integer($0, "dropped", in: 0...Int.max) } ?? 0,
            codec: value("codec").flatMap { reader.string($0, "codec") } ?? "",
            recording: value("recording").flatMap { reader.bool($0, "recording") } ?? false,
            exported: value("exported").flatMap { reader.string($0, "exported") },
            kept: value("kept").flatMap { reader.string($0, "kept") })
    }

    /// A name without folders, so a manifest can only point inside its work folder.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// The thumbnail of a take file (a name or a path): the same name with
    /// `.jpg` for its extension (`take-….mp4` → `take-….jpg`).
    public static func thumbnailName(for file: String) -> String {
        let name = file.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(file.dropLast(name.distance(from: dot, to: name.endIndex))) + ".jpg"
        }
        return file + ".jpg"
    }

    /// The file name for a take that started at `started` (µs since 1970, UTC):
    /// `take-20261121-094512-3f2a.mp4`.
    public static func takeFileName(started: Int64, id: String, extension: String = "mp4") -> String {
        "take-" + UTCTime.compact(microseconds: started) + "-" + id + "." + `extension`
    }
}

/// UTC calendar formatting without Foundation (days-from-civil arithmetic).
public enum UTCTime {
    /// `2026-11-21T09:45:12.345Z`.
    public static func format(microseconds: Int64) -> String {
        let (date, time, millis) = parts(microseconds)
        return "\(date.0)-\(pad(date.1))-\(pad(date.2))T\(pad(time.0)):\(pad(time.1)):\(pad(time.2))."
            + String(repeating: "0", count: 3 - String(millis).count) + "\(millis)Z"
    }

    /// `20261121-094512`.
    public static func compact(microseconds: Int64) -> String {
        let (date, time, _) = parts(microseconds)
        return "\(date.0)\(pad(date.1))\(pad(date.2))-\(pad(time.0))\(pad(time.1))\(pad(time.2))"
    }

    private static func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func parts(_ microseconds: Int64) -> ((Int64, Int64, Int64), (Int64, Int64, Int64), Int64) {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let millis = (microseconds - seconds * 1_000_000) / 1000
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return ((year, month, day), (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60), millis)
    }
}
