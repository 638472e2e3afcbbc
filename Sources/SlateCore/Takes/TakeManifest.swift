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
        public var summary: TakeSummary
        public var codec: String
        public var recording: Bool
        /// The export that holds this take, once it is verified: the take's files
        /// are being deleted (a crash in between is finished by `recover`).
        public var exported: String?
        /// Why the take is kept after an export (it joined it and the profile
        /// does not clean up, or it read short and the export holds only part
        /// of it); such a take is not exported again.
        public var kept: String?
        /// When the take was deleted to the trash, in microseconds since 1970:
        /// its files are in the work folder's `trash` folder until `TakeTrash` says it expired.
        public var trashed: Int64?
        /// When a take in the trash is deleted for good (µs since 1970), set
        /// as it was deleted: a later change of `camera.trash-hours` does not move it.
        public var trashExpires: Int64?
        /// How long its sound is, in seconds; nil for a picture-only take.
        public var sound: Double?
        /// The timecode of its first frame (`Timecode`), the local time of day;
        /// nil for a take recorded before Slate wrote one.
        public var timecode: String?
        /// The moments marked while it recorded, in order.
        public var markers: [TakeMarker] = []
        /// Its frame rate, frames a second; nil for a take recorded before Slate kept it.
        public var fps: FrameRate?
        /// Its proxy, relative to the folder holding the take (`Proxy/NAME.mp4`,
        /// `ProxyNaming`); nil for a take without one.
        public var proxy: String?

        public init(
            id: String, file: String, thumbnail: String?, started: Int64, summary: TakeSummary = TakeSummary(),
            codec: String, recording: Bool, exported: String? = nil, kept: String? = nil, trashed: Int64? = nil
        ) {
            self.id = id
            self.file = file
            self.thumbnail = thumbnail
            self.started = started
            self.summary = summary
            self.codec = codec
            self.recording = recording
            self.exported = exported
            self.kept = kept
            self.trashed = trashed
        }

        /// Finished, and neither exported, kept after an export, nor in the trash.
        public var isExportable: Bool { !recording && exported == nil && kept == nil && trashed == nil }
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

    /// The manifest as JSON, on one line: `{"takes":[...],"version":1}`.
    public var json: String { JSONLine.encode(self) + "\n" }

    /// Reads `takes.json`; errors name the file and the entry (`takes[2].file`).
    public static func parse(_ text: String, file: String) -> Result<TakeManifest, JSONFileError> {
        JSONFileError.decode(TakeManifest.self, from: text, file: file)
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

extension TakeManifest: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, takes
    }

    /// The manifest's only version so far.
    static let version = 1

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let version = try container.decodeIfPresent(Int.self, forKey: .version), version != Self.version {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "version must be \(Self.version), not \(version)")
        }
        takes = try container.decodeIfPresent([Take].self, forKey: .takes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .version)
        try container.encode(takes, forKey: .takes)
    }
}

/// A take in `takes.json`: `started` (its first frame on CLOCK_REALTIME) in
/// microseconds since 1970, and as `realtime_ns` and `start` (UTC text), its summary (`duration` in seconds, to the
/// microsecond), `thumbnail` null when there is none;
/// `exported`, `kept`, `trashed` and `trash_expires` (microseconds since 1970)
/// `sound` (its length in seconds), `timecode` (its first frame's), `fps`, `markers` and `proxy` only when set.
/// Files must be names in the work folder; a proxy, a name in its proxy folder there.
extension TakeManifest.Take: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, file, thumbnail, started, start, codec, recording, exported, kept, trashed, sound, timecode, markers, fps, proxy
        case trashExpires = "trash_expires"
        case realtimeNs = "realtime_ns"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func name(_ key: CodingKeys, _ value: String) throws -> String {
            guard TakeManifest.isPlainName(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "a take's \(key.stringValue) must be a file name in the work folder, not '\(value)'")
            }
            return value
        }
        id = try container.decode(String.self, forKey: .id)
        file = try name(.file, try container.decode(String.self, forKey: .file))
        thumbnail = try container.decodeIfPresent(String.self, forKey: .thumbnail).map { try name(.thumbnail, $0) }
        started = try container.decode(Int64.self, forKey: .started)
        guard started >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .started, in: container, debugDescription: "started must not be negative, not \(started)")
        }
        summary = try TakeSummary(from: decoder)
        codec = try container.decodeIfPresent(String.self, forKey: .codec) ?? ""
        recording = try container.decodeIfPresent(Bool.self, forKey: .recording) ?? false
        exported = try container.decodeIfPresent(String.self, forKey: .exported)
        kept = try container.decodeIfPresent(String.self, forKey: .kept)
        trashed = try container.decodeIfPresent(Int64.self, forKey: .trashed)
        trashExpires = try container.decodeIfPresent(Int64.self, forKey: .trashExpires)
        sound = try container.decodeIfPresent(Double.self, forKey: .sound)
        timecode = try container.decodeIfPresent(String.self, forKey: .timecode)
        markers = try container.decodeIfPresent([TakeMarker].self, forKey: .markers) ?? []
        guard markers.count <= TakeMarker.limit, markers.allSatisfy(\.isValid) else {
            throw DecodingError.dataCorruptedError(
                forKey: .markers, in: container,
                debugDescription: "a take's markers are at most \(TakeMarker.limit), each 0 to \(Int(TakeMarker.atLimit)) s in, "
                    + "with a name of 1 to \(TakeMarker.nameLimit) characters")
        }
        fps = try container.decodeIfPresent(FrameRate.self, forKey: .fps)
        proxy = try container.decodeIfPresent(String.self, forKey: .proxy)
        if let proxy, ProxyNaming.split(proxy) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .proxy, in: container,
                debugDescription:
                    "a take's proxy must be Proxy/NAME or Proxies/NAME (.mp4 or .mov) in the work folder, not '\(proxy)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(file, forKey: .file)
        try container.encode(thumbnail, forKey: .thumbnail)
        try container.encode(started, forKey: .started)
        try container.encode(UTCTime.format(microseconds: started), forKey: .start)
        try container.encode(started &* 1000, forKey: .realtimeNs)
        try summary.encode(to: encoder, decimals: 6)
        try container.encode(codec, forKey: .codec)
        try container.encode(recording, forKey: .recording)
        try container.encodeIfPresent(exported, forKey: .exported)
        try container.encodeIfPresent(kept, forKey: .kept)
        try container.encodeIfPresent(trashed, forKey: .trashed)
        try container.encodeIfPresent(trashExpires, forKey: .trashExpires)
        try container.encodeIfPresent(sound, forKey: .sound)
        try container.encodeIfPresent(timecode, forKey: .timecode)
        if !markers.isEmpty { try container.encode(markers, forKey: .markers) }
        try container.encodeIfPresent(fps, forKey: .fps)
        try container.encodeIfPresent(proxy, forKey: .proxy)
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
