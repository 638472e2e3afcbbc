/// Recorded input: one or more devices, each with its identity and the events
/// it sent, as read from an evemu or libinput record file.
public struct Recording: Hashable, Sendable {
    public var devices: [RecordedDevice]

    public init(devices: [RecordedDevice]) { self.devices = devices }

    /// Parses a recording in either format, detecting which from its content.
    ///
    /// `file` names the input in error messages.
    public static func parse(_ text: String, file: String) throws(RecordingError) -> Recording {
        switch RecordingFormat.detect(text) {
        case .evemu: return try EvemuRecording.parse(text, file: file)
        case .libinputRecord: return try LibinputRecording.parse(text, file: file)
        case nil:
            let line = RecordingFormat.firstContentLine(text)
            throw RecordingError(
                file: file, line: line ?? 1,
                message: line == nil
                    ? "empty recording: expected an evemu recording or a libinput record YAML file"
                    : "unrecognized recording format: expected an evemu recording ('N:', 'I:', 'E:' lines)"
                        + " or a libinput record YAML file ('version: 1', 'devices:')")
        }
    }

    /// Parses a recording from raw file bytes, which must be UTF-8.
    public static func parse(utf8 bytes: [UInt8], file: String) throws(RecordingError) -> Recording {
        if let line = UTF8Check.firstInvalidLine(bytes) {
            throw RecordingError(file: file, line: line, message: "the file is not valid UTF-8 text")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: file)
    }
}

/// One recorded device: who it is and what it sent.
public struct RecordedDevice: Hashable, Sendable {
    public var identity: DeviceIdentity
    /// The events in file order, with the timestamps the file gives them.
    public var events: [InputEvent]

    public init(identity: DeviceIdentity, events: [InputEvent]) {
        self.identity = identity
        self.events = events
    }
}

/// A recording that cannot be read, with the 1-based line where the problem is.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: error: MESSAGE`.
    public var description: String { "\(file):\(line): error: \(message)" }
}

/// The recording file formats Slate reads.
public enum RecordingFormat: Hashable, Sendable {
    /// `evemu-record` output (`# EVEMU 1.3`, `N:`, `I:`, `B:`, `E:` lines).
    case evemu
    /// `libinput record` YAML output.
    case libinputRecord

    /// The format of a recording, judged from its first lines, or nil when it
    /// looks like neither.
    ///
    /// A `# EVEMU` header or a first line such as `N: name` means evemu; a
    /// `# libinput record` header or a first line that is a YAML key such as
    /// `version: 1` means libinput record.
    public static func detect(_ text: String) -> RecordingFormat? {
        var result: RecordingFormat?
        scanHead(text) { line, _ in
            if line.starts(with: "# EVEMU".utf8) {
                result = .evemu
                return true
            }
            if line.starts(with: "# libinput record".utf8) {
                result = .libinputRecord
                return true
            }
            if line.first == UInt8(ascii: "#") { return false }
            result = classify(contentLine: line)
            return true
        }
        return result
    }

    static func classify(contentLine line: Substring.UTF8View) -> RecordingFormat? {
        var bytes = line.makeIterator()
        guard let first = bytes.next() else { return nil }
        let second = bytes.next()
        if first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") && second == UInt8(ascii: ":") {
            return .evemu
        }
        if line.starts(with: "---".utf8) || line.starts(with: "%YAML".utf8) { return .libinputRecord }
        // A YAML mapping key: a lowercase identifier followed by ':'.
        guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return nil }
        for byte in line {
            if byte == UInt8(ascii: ":") { return .libinputRecord }
            let isIdentifier =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            if !isIdentifier { return nil }
        }
        return nil
    }

    /// The 1-based number of the first line that is neither blank nor a comment.
    static func firstContentLine(_ text: String) -> Int? {
        var found: Int?
        scanHead(text) { line, number in
            if line.first == UInt8(ascii: "#") { return false }
            found = number
            return true
        }
        return found
    }

    /// Calls `body` with each non-blank line (leading blanks and a trailing CR
    /// removed) until it returns true.
    private static func scanHead(_ text: String, _ body: (Substring.UTF8View, Int) -> Bool) {
        let utf8 = text.utf8
        var number = 0
        var start = utf8.startIndex
        while start < utf8.endIndex {
            number += 1
            let end = utf8[start...].firstIndex(of: 0x0A) ?? utf8.endIndex
            var line = utf8[start..<end]
            start = end < utf8.endIndex ? utf8.index(after: end) : end
            while let first = line.first, first == 0x20 || first == 0x09 { line = line.dropFirst() }
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
            if line.isEmpty { continue }
            if body(line, number) { return }
        }
    }
}

enum UTF8Check {
    /// The 1-based line holding the first byte sequence that is not UTF-8, or nil.
    static func firstInvalidLine(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var line = 1
        for chunk in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: chunk, as: UTF8.self) == nil { return line }
            line += 1
        }
        return line
    }
}

/// Checks of event types and codes against the kernel's limits (`KEY_MAX`, `REL_MAX`, ...).
enum EventLimits {
    static let evMax: UInt16 = 0x1f
    static let inputPropMax = 0x1f

    /// The highest code of a type that has codes, or nil.
    static func maxCode(type: UInt16) -> UInt16? { EventCodes.maxCode(type: type) }

    /// Whether events of this type can be sent at all: the types with codes,
    /// plus `EV_PWR` and `EV_FF_STATUS`.
    static func isEventType(_ type: UInt16) -> Bool {
        maxCode(type: type) != nil || type == EventType.pwr || type == EventType.ffStatus
    }

    /// `EV_KEY (0x01)`, or `event type 0x06` for a type without a name.
    static func describe(type: UInt16) -> String {
        if let name = EventCodes.typeName(type) { return "\(name) (\(Hex.prefixed(type, digits: 2)))" }
        return "event type \(Hex.prefixed(type, digits: 2))"
    }

    /// Checks an event's type and code; returns a message when they are impossible.
    static func checkEvent(type: UInt16, code: UInt16) -> String? {
        if let max = maxCode(type: type) {
            return code > max ? codeTooLarge(type: type, code: code, max: max) : nil
        }
        return isEventType(type) ? nil : "unknown \(describe(type: type))"
    }

    /// Checks a code a device declares it supports.
    static func checkCapability(type: UInt16, code: Int) -> String? {
        guard let max = maxCode(type: type) else {
            return isEventType(type)
                ? "\(describe(type: type)) has no event codes a device can declare"
                : "unknown \(describe(type: type))"
        }
        return code > Int(max) ? codeTooLarge(type: type, code: code, max: max) : nil
    }

    private static func codeTooLarge(type: UInt16, code: some BinaryInteger, max: UInt16) -> String {
        "code \(Hex.prefixed(code, digits: 2)) is above the maximum \(Hex.prefixed(max, digits: 2)) for \(describe(type: type))"
    }
}
