/// Recorded input: one or more devices, each with its identity and the events
/// it sent, as read from an evemu or libinput record file.
///
/// Files as people paste them are read as far as they can be: terminal echo
/// before a line, a missing device description, tab indentation, times that go
/// back and a file that ends early each give a warning instead of an error.
public struct InputRecording: Hashable, Sendable {
    public var devices: [RecordedDevice]
    /// What the parser read past or repaired, in line order.
    public var warnings: [InputRecordingWarning]

    public init(devices: [RecordedDevice], warnings: [InputRecordingWarning] = []) {
        self.devices = devices
        self.warnings = warnings
    }

    /// Parses a recording in either format, detecting which from its content.
    ///
    /// `file` names the input in error messages.
    public static func parse(_ text: String, file: String) throws(InputRecordingError) -> InputRecording {
        switch InputRecordingFormat.detect(text) {
        case .evemu: return try EvemuRecording.parse(text, file: file)
        case .libinputRecord: return try LibinputRecording.parse(text, file: file)
        case nil:
            let line = InputRecordingFormat.firstContentLine(text)
            throw InputRecordingError(
                file: file, line: line ?? 1,
                message: line == nil
                    ? "empty recording: expected an evemu recording or a libinput record YAML file"
                    : "unrecognized recording format: expected an evemu recording ('N:', 'I:', 'E:' lines)"
                        + " or a libinput record YAML file ('version: 1', 'devices:')")
        }
    }

    /// Parses a recording from raw file bytes, which must be UTF-8.
    public static func parse(utf8 bytes: [UInt8], file: String) throws(InputRecordingError) -> InputRecording {
        if let line = UTF8Check.firstInvalidLine(bytes) {
            throw InputRecordingError(file: file, line: line, message: "the file is not valid UTF-8 text")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: file)
    }
}

/// One recorded device: who it is and what it sent.
public struct RecordedDevice: Hashable, Sendable {
    /// What the file says about the device.
    public struct Description: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let name = Description(rawValue: 1)
        /// Bus, vendor, product and version.
        public static let ids = Description(rawValue: 2)
        /// The codes the device has (`B:` lines, `codes`).
        public static let codes = Description(rawValue: 4)
        public static let all: Description = [.name, .ids, .codes]
    }

    /// The device as the file describes it. What the file leaves out is empty
    /// or zero, except the codes, which are then those of the events it sent.
    public var identity: DeviceIdentity
    /// The events in file order. Times are the file's own, except after a time
    /// that goes back: that event and the ones after it are moved later, so
    /// times never decrease.
    public var events: [InputEvent]
    public var described: Description

    public init(identity: DeviceIdentity, events: [InputEvent], described: Description = .all) {
        self.identity = identity
        self.events = events
        self.described = described
    }

    /// The codes of the events a device sent, for a file that does not list them.
    static func codes(of events: [InputEvent]) -> Set<EventCode> {
        var codes = Set<EventCode>()
        for event in events where event.type != EventType.syn {
            codes.insert(EventCode(type: event.type, code: event.code))
        }
        return codes
    }

    /// `KEY_B, MSC_SCAN`: a few code names, for a message.
    static func summary(_ codes: Set<EventCode>) -> String {
        let sorted = codes.sorted { ($0.type, $0.code) < ($1.type, $1.code) }
        let names = sorted.prefix(8).map(\.name).joined(separator: ", ")
        return sorted.count > 8 ? names + ", …" : names
    }
}

/// A recording that cannot be read, with the 1-based line where the problem is.
public struct InputRecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    /// How to fix the file, when Slate can tell.
    public var hint: String?

    public init(file: String, line: Int, message: String, hint: String? = nil) {
        self.file = file
        self.line = line
        self.message = message
        self.hint = hint
    }

    /// `FILE:LINE: error: MESSAGE`, then ` (hint: HINT)` when there is one.
    public var description: String {
        "\(file):\(line): error: \(message)" + (hint.map { " (hint: \($0))" } ?? "")
    }
}

/// Something a recording's parser read past or repaired: `FILE:LINE: warning: MESSAGE`.
public struct InputRecordingWarning: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): warning: \(message)" }
}

/// The warnings of one parse. Those that can repeat on every line (terminal
/// echo, times that go back) are given for the first few lines, then counted.
struct InputRecordingWarnings {
    enum Kind: Hashable {
        case terminalEcho, timeGoesBack, other

        var plural: String {
            switch self {
            case .terminalEcho: "lines with terminal echo"
            case .timeGoesBack: "times that go back"
            case .other: "warnings"
            }
        }
    }

    static let limit = 5
    let file: String
    private var list: [InputRecordingWarning] = []
    private var repeats: [Kind: (count: Int, lastLine: Int)] = [:]

    init(file: String) { self.file = file }

    mutating func add(_ kind: Kind = .other, line: Int, _ message: @autoclosure () -> String) {
        if kind != .other {
            let count = (repeats[kind]?.count ?? 0) + 1
            repeats[kind] = (count, line)
            guard count <= Self.limit else { return }
        }
        list.append(InputRecordingWarning(file: file, line: line, message: message()))
    }

    /// Every warning, in line order, with a count of those left out.
    var all: [InputRecordingWarning] {
        var result = list
        for kind in [Kind.terminalEcho, .timeGoesBack] {
            guard let entry = repeats[kind], entry.count > Self.limit else { continue }
            result.append(
                InputRecordingWarning(
                    file: file, line: entry.lastLine,
                    message: "\(entry.count - Self.limit) more \(kind.plural) read the same way, the last one here"))
        }
        return result.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }
}

/// The events of one device as a parser reads them, kept in file order.
///
/// A time earlier than the one before it (a clock set back, recordings joined)
/// moves that event and every later one forward by the difference, so times
/// never decrease and no release is sorted before its press. `finish` drops a
/// last frame without a `SYN_REPORT`: a device sends each frame whole, so it
/// was cut off.
struct RecordedEvents {
    private(set) var events: [InputEvent] = []
    private var shift: Int64 = 0
    private var previous: (inFile: Int64, moved: Int64)?
    /// Where the frame not yet closed by a SYN_REPORT starts.
    private var openFrame: (index: Int, line: Int)?

    init(capacity: Int = 0) { events.reserveCapacity(capacity) }

    mutating func append(_ event: InputEvent, line: Int, warnings: inout InputRecordingWarnings) {
        var event = event
        let inFile = event.time.microseconds
        var time = Self.adding(inFile, shift)
        if let previous, time < previous.moved {
            let back = previous.moved - time
            shift = Self.adding(shift, back)
            time = previous.moved
            warnings.add(
                .timeGoesBack, line: line,
                "time \(Instant.formatSeconds(inFile, decimals: 6)) is earlier than the event before it"
                    + " (\(Instant.formatSeconds(previous.inFile, decimals: 6))): the events stay in file order,"
                    + " this one and the ones after it moved \(Instant.formatSeconds(back, decimals: 6)) s later")
        }
        previous = (inFile, time)
        event.time = Instant(microseconds: time)
        if event.type == EventType.syn && event.code == SynCode.report {
            openFrame = nil
        } else if openFrame == nil {
            openFrame = (events.count, line)
        }
        events.append(event)
    }

    /// The events, without a last frame that no SYN_REPORT closes.
    mutating func finish(warnings: inout InputRecordingWarnings) -> [InputEvent] {
        if let open = openFrame {
            warnings.add(
                line: open.line,
                "the file ends early: the events from this line on have no SYN_REPORT after them and are dropped")
            events.removeSubrange(open.index...)
            openFrame = nil
        }
        return events
    }

    /// `a + b` for times and shifts (never negative), at most `Int64.max`.
    private static func adding(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int64.max : sum
    }
}

/// The recording file formats Slate reads.
public enum InputRecordingFormat: Hashable, Sendable {
    /// `evemu-record` output (`# EVEMU 1.3`, `N:`, `I:`, `B:`, `E:` lines).
    case evemu
    /// `libinput record` YAML output.
    case libinputRecord

    /// The format of a recording, judged from its first lines, or nil when it
    /// looks like neither.
    ///
    /// A `# EVEMU` header or a first line such as `N: name` means evemu; a
    /// `# libinput record` header or a first line that is a YAML key such as
    /// `version: 1` means libinput record. Terminal echo before the first line
    /// (see ``EvemuRecording``) is passed over.
    public static func detect(_ text: String) -> InputRecordingFormat? {
        var result: InputRecordingFormat?
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
            let bytes = Array(line)
            let echo = TerminalEcho.prefixLength(bytes, 0, bytes.count)
            if echo == bytes.count { return false }
            result = classify(contentLine: bytes[echo...])
            return true
        }
        return result
    }

    static func classify(contentLine line: some Collection<UInt8>) -> InputRecordingFormat? {
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

/// A device's bus, vendor, product and version, written as evemu's `I:` line
/// writes them but joined with colons: `0003:3553:b001` (the version may follow).
/// The bus may also be a name such as `usb`.
public struct DeviceIDs: Hashable, Sendable {
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16 = 0) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    /// Parses `BUS:VENDOR:PRODUCT[:VERSION]`, each hexadecimal (`0x` allowed);
    /// nil when the text is not that.
    public init?(parsing text: String) {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 4 else { return nil }
        var numbers: [UInt16] = []
        for (index, field) in fields.enumerated() {
            let digits = field.hasPrefix("0x") || field.hasPrefix("0X") ? field.dropFirst(2) : field[...]
            if let number = UInt16(digits, radix: 16), !digits.hasPrefix("+"), !digits.hasPrefix("-") {
                numbers.append(number)
            } else if index == 0, let bus = Bus.value(named: field.lowercased()) {
                numbers.append(bus)
            } else {
                return nil
            }
        }
        self.init(bus: numbers[0], vendor: numbers[1], product: numbers[2], version: numbers.count > 3 ? numbers[3] : 0)
    }
}

extension InputRecording {
    /// The recording with `name` and `ids` given to the devices whose file does
    /// not say them (a snippet of events without its description), and how many
    /// devices took one or the other.
    public func describing(name: String?, ids: DeviceIDs?) -> (recording: InputRecording, described: Int) {
        var copy = self
        var count = 0
        for index in copy.devices.indices {
            var device = copy.devices[index]
            var changed = false
            if let name, !device.described.contains(.name) {
                device.identity.name = name
                device.described.insert(.name)
                changed = true
            }
            if let ids, !device.described.contains(.ids) {
                device.identity.bus = ids.bus
                device.identity.vendor = ids.vendor
                device.identity.product = ids.product
                device.identity.version = ids.version
                device.described.insert(.ids)
                changed = true
            }
            if changed { count += 1 }
            copy.devices[index] = device
        }
        return (copy, count)
    }
}
