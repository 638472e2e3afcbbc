extension DecodingError {
    /// Where in a JSON document the error is (`takes[2].file`; empty for the
    /// document as a whole) and what is wrong there, in words.
    var entryAndMessage: (entry: String, message: String) {
        let (codingPath, message): ([any CodingKey], String) =
            switch self {
            case .keyNotFound(let key, let context): (context.codingPath, "'\(key.stringValue)' is missing")
            case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
                (context.codingPath, "must be " + Self.kind(type))
            case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
            @unknown default: ([], "\(self)")
            }
        var entry = ""
        for key in codingPath {
            if let index = key.intValue { entry += "[\(index)]" } else { entry += (entry.isEmpty ? "" : ".") + key.stringValue }
        }
        return (entry, message)
    }

    /// What a JSON value of `type` is called.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type: "a whole number"
        case is Double.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}

extension DecodingError {
    /// The error in words, led by where it is: `action must be a string`.
    public var plainText: String {
        let (entry, message) = entryAndMessage
        return entry.isEmpty ? message : "\(entry) \(message)"
    }
}
