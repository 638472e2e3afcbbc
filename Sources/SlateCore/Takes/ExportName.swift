/// How exports are named, from `camera.export-name`: a template of `{rig}` (the profile's
/// `mqtt.rig`, else the host's name), `{date}` and `{time}` (the export's local date and time,
/// `20261126` and `100703`), each at most once, among letters, digits, `-`, `_` and `.`; `.mp4`
/// follows. A name is at most 100 + 64 (the rig) characters, well within a file name's 255.
public struct ExportName: Hashable, Sendable {
    public let template: String

    /// `{rig}-{date}-{time}`: `cam-a-20261126-100703.mp4`.
    public static let standard = ExportName(checked: "{rig}-{date}-{time}")

    /// The longest template.
    public static let limit = 100

    private init(checked template: String) { self.template = template }

    /// The template, or why it is none.
    public static func parse(_ template: String) -> Result<ExportName, ExportNameError> {
        guard !template.isEmpty, template.utf8.count <= limit else {
            return .failure(ExportNameError(reason: "must be 1 to \(limit) characters"))
        }
        var rest = Substring(template)
        var fields: Set<Substring> = []
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                return .failure(ExportNameError(reason: "has a '{' without its '}'"))
            }
            let field = rest[rest.index(after: open)..<close]
            guard ["rig", "date", "time"].contains(field) else {
                return .failure(ExportNameError(reason: "has {\(field)}; it takes {rig}, {date} and {time}"))
            }
            guard fields.insert(field).inserted else {
                return .failure(ExportNameError(reason: "has {\(field)} twice"))
            }
            guard let bad = rest[..<open].first(where: { !isAllowed($0) }) else {
                rest = rest[rest.index(after: close)...]
                continue
            }
            return .failure(ExportNameError(reason: "has '\(bad)'; it takes letters, digits, '-', '_' and '.'"))
        }
        if let bad = rest.first(where: { !isAllowed($0) }) {
            return .failure(ExportNameError(reason: "has '\(bad)'; it takes letters, digits, '-', '_' and '.'"))
        }
        // Not a hidden file, nor one that reads as an option.
        guard let first = template.first, first != ".", first != "-" else {
            return .failure(ExportNameError(reason: "must not start with '.' or '-'"))
        }
        // Two exports a minute apart must not be named alike (a second's clash gets `-2`).
        guard fields.contains("time") else { return .failure(ExportNameError(reason: "needs {time}, so that exports differ")) }
        return .success(ExportName(checked: template))
    }

    /// The file name of an export by `rig` at `local` microseconds since 1970 in local time
    /// (the wall clock plus the zone's offset); a rig's characters the template would refuse become `-`,
    /// and a rig that starts with `-` or `.`, or has nothing left, is `slate`.
    public func fileName(rig: String, local: Int64) -> String {
        let compact = UTCTime.compact(microseconds: local).split(separator: "-")
        var safeRig = String(rig.map { Self.isAllowed($0) ? $0 : "-" }.prefix(64))
        if safeRig.first == "-" || safeRig.first == "." { safeRig = "" }
        return
            template
            .replacing("{rig}", with: safeRig.isEmpty ? "slate" : safeRig)
            .replacing("{date}", with: String(compact[0]))
            .replacing("{time}", with: String(compact[1])) + ".mp4"
    }

    private static func isAllowed(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
    }
}

/// Why a `camera.export-name` template is refused.
public struct ExportNameError: Error, Hashable, Sendable {
    public var reason: String
}
