import FoundationEssentials

/// JSON lines as Slate prints them: one object per line, keys sorted so every
/// line of a type reads the same, `/` not escaped (paths stay readable).
///
/// The one file of SlateCore that imports FoundationEssentials, for its JSON
/// coders only (the standard library has `Codable` but no coder); `make lint`
/// refuses FoundationEssentials in every other file of SlateCore.
public enum JSONLine {
    /// `value` as one line of JSON. A number that is not finite, which JSON
    /// cannot hold, is written as a string (`inf`, `nan`).
    public static func encode<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            preconditionFailure("\(Value.self) has no JSON form: \(error)")
        }
    }

    /// `bytes` decoded as `Value`; the error is `DecodingError` for JSON that is
    /// not a `Value`'s.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws -> Value {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
