/// An HTTP `Range` request of a file of `size` bytes (RFC 9110 §14): one range
/// of bytes is served; several, or a unit other than bytes, get the whole file,
/// as a server may answer; a range that starts past the end cannot be served.
public enum ByteRange: Equatable, Sendable {
    /// The whole file (no `Range`, or one served whole).
    case whole
    /// The bytes `first...last`, within the file.
    case part(first: Int64, last: Int64)
    /// 416: no byte of the file is in the range.
    case unsatisfiable

    /// What the `Range` field `header` asks of a file of `size` bytes.
    public static func parse(_ header: String?, size: Int64) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), size >= 0 else { return .whole }
        let spec = header.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let start = spec[..<dash], end = spec[spec.index(after: dash)...]
        guard start.allSatisfy(\.isASCIIDigit), end.allSatisfy(\.isASCIIDigit), start.count <= 18, end.count <= 18 else {
            return .whole
        }
        if start.isEmpty {
            // The last `end` bytes; of an empty file, the whole of it.
            guard let suffix = Int64(end), suffix > 0 else { return end.isEmpty ? .whole : .unsatisfiable }
            return size == 0 ? .whole : .part(first: max(0, size - suffix), last: size - 1)
        }
        guard let first = Int64(start) else { return .whole }
        let asked = end.isEmpty ? nil : Int64(end)
        // A last byte before the first is not a range: the field is ignored.
        if let asked, asked < first { return .whole }
        guard first < size else { return .unsatisfiable }
        return .part(first: first, last: min(asked ?? size - 1, size - 1))
    }
}
