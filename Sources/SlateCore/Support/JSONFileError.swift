/// Why a JSON file Slate reads (`takes.json`, a control catalog) cannot be
/// read: the file, the entry (`takes[2].file`, empty for the file as a whole)
/// and what is wrong with it.
public struct JSONFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var entry: String
    public var message: String

    public init(file: String, entry: String, message: String) {
        self.file = file
        self.entry = entry
        self.message = message
    }

    /// `text` decoded as `Value`; an error names the file and the entry.
    static func decode<Value: Decodable>(_ type: Value.Type, from text: String, file: String) -> Result<Value, JSONFileError> {
        do {
            return .success(try JSONLine.decode(type, from: text.utf8))
        } catch let error as DecodingError {
            let (entry, message) = error.entryAndMessage
            return .failure(JSONFileError(file: file, entry: entry, message: message))
        } catch {
            return .failure(JSONFileError(file: file, entry: "", message: "\(error)"))
        }
    }

    /// `takes.json: error: takes[0].file: a take's file must be a file name in the work folder, not '../x'`.
    public var description: String { "\(file): error: " + (entry.isEmpty ? "" : "\(entry): ") + message }
}
