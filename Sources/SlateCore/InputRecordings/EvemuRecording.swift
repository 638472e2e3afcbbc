/// Reader for `evemu-record` files (format 1.x): one device description
/// (`N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:` lines) followed by `E:` event lines.
///
/// The device's codes come from its `B:` bitmasks (every type but `EV_SYN`);
/// events keep the timestamps written in the file. A snippet of `E:` lines
/// alone is a device whose name and ids are unknown; without `B:` lines the
/// codes are those of the events. Terminal echo before a line is skipped and
/// a half-written last line dropped, each with a warning.
public enum EvemuRecording {
    /// Parses an evemu recording; `file` names the input in error messages.
    public static func parse(_ text: String, file: String) throws(InputRecordingError) -> InputRecording {
        var text = text
        let result = text.withUTF8 { bytes in
            var parser = EvemuParser(bytes: bytes, file: file)
            return Result { () throws(InputRecordingError) in try parser.parse() }
        }
        return try result.get()
    }
}

/// A line-by-line parser over UTF-8 bytes that makes no string per field.
private struct EvemuParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    /// The 1-based number of the line being parsed.
    var line = 0

    private enum Stage { case start, named, described, events }

    private var stage = Stage.start
    private var name = ""
    private var nameLine = 0
    private var id: [UInt16] = [0, 0, 0, 0]
    private var codes = Set<EventCode>()
    private var sawBitmask = false
    private var descriptionLine = 0
    private var maskBytes = [Int](repeating: 0, count: Int(EventLimits.evMax) + 1)
    private var events: RecordedEvents
    private var warnings: InputRecordingWarnings

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
        events = RecordedEvents(capacity: bytes.count / 48)
        warnings = InputRecordingWarnings(file: file)
    }

    /// Largest seconds value whose microseconds still fit in an `Int64`.
    static let maxSeconds: Int64 = Int64.max / 1_000_000 - 1

    mutating func parse() throws(InputRecordingError) -> InputRecording {
        let count = bytes.count
        var next = 0
        while next < count {
            line += 1
            let start = next
            var end = start
            while end < count && bytes[end] != 0x0A { end += 1 }
            let terminated = end < count
            next = end + 1
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            var s = start
            while s < end && (bytes[s] == 0x20 || bytes[s] == 0x09) { s += 1 }
            if s == end || bytes[s] == UInt8(ascii: "#") { continue }
            do {
                try parseLine(s, end)
            } catch {
                guard isHalfWritten(s, end, terminated: terminated, next: next) else { throw error }
                let message = "the file ends early: the half-written last line '\(text(s, end))' is dropped"
                warnings.add(line: line, message)
                break
            }
        }

        switch stage {
        case .start:
            line = max(line, 1)
            throw error("no device description: expected an 'N: <device name>' line")
        case .named:
            line = nameLine
            throw error("'N:' line without an 'I: <bus> <vendor> <product> <version>' line after it")
        case .described, .events:
            break
        }
        var described = RecordedDevice.Description()
        if nameLine > 0 { described.insert(.name) }
        if descriptionLine > 0 { described.insert(.ids) }
        let read = events.finish(warnings: &warnings)
        if sawBitmask {
            described.insert(.codes)
        } else {
            codes = RecordedDevice.codes(of: read)
            if !codes.isEmpty {
                warnings.add(
                    line: descriptionLine > 0 ? descriptionLine : max(nameLine, 1),
                    "no 'B:' lines: the device's codes are taken from the events it sends ("
                        + RecordedDevice.summary(codes) + ")")
            }
        }
        let identity = DeviceIdentity(
            name: name, bus: id[0], vendor: id[1], product: id[2], version: id[3], codes: codes)
        return InputRecording(
            devices: [RecordedDevice(identity: identity, events: read, described: described)],
            warnings: warnings.all)
    }

    /// Whether a line that cannot be read is an event line the file was cut in
    /// the middle of: the last line, either without its newline or with fields missing.
    private func isHalfWritten(_ s: Int, _ end: Int, terminated: Bool, next: Int) -> Bool {
        guard bytes[s] == UInt8(ascii: "E") else { return false }
        guard terminated else { return true }
        var p = next
        while p < bytes.count {
            guard bytes[p] == 0x20 || bytes[p] == 0x09 || bytes[p] == 0x0A || bytes[p] == 0x0D else { return false }
            p += 1
        }
        guard end - s >= 2, bytes[s + 1] == UInt8(ascii: ":") else { return true }
        var c = s + 2
        var fields = 0
        while nextToken(&c, end) != nil { fields += 1 }
        return fields < 4
    }

    private mutating func parseLine(_ start: Int, _ end: Int) throws(InputRecordingError) {
        var s = start
        let echo = TerminalEcho.prefixLength(bytes, s, end)
        if echo > 0 {
            var echoEnd = s + echo
            while bytes[echoEnd - 1] == 0x20 || bytes[echoEnd - 1] == 0x09 { echoEnd -= 1 }
            let shown = "'" + text(s, echoEnd) + "'"
            s += echo
            guard s < end, bytes[s] != UInt8(ascii: "#") else {
                warnings.add(.terminalEcho, line: line, "terminal echo \(shown) skipped")
                return
            }
            guard end - s >= 2 && bytes[s + 1] == UInt8(ascii: ":") else {
                throw error(
                    "unexpected text '\(text(s, end))' after the terminal echo \(shown)",
                    hint: "delete this line, or keep only its 'E:' event if it has one")
            }
            let kind = text(s, s + 2)
            warnings.add(.terminalEcho, line: line, "terminal echo \(shown) before '\(kind)' skipped")
        }

        guard end - s >= 2 && bytes[s + 1] == UInt8(ascii: ":") else {
            throw error(
                "unexpected line '\(text(s, end))': expected a line such as 'N:', 'I:', 'B:' or 'E:'",
                hint: eventInside(s, end) ? "delete the text before 'E:' on this line" : nil)
        }
        let kind = bytes[s]
        var c = s + 2
        if kind == UInt8(ascii: "E") {
            switch stage {
            case .start:
                warnings.add(
                    line: line,
                    "no device description ('N:' and 'I:' lines) before the events: the recording does not say the device's name and ids"
                )
            case .named:
                warnings.add(line: line, "no 'I:' line before the events: the recording does not say the device's ids")
            case .described, .events:
                break
            }
            stage = .events
            events.append(try event(&c, end), line: line, warnings: &warnings)
            return
        }

        switch (kind, stage) {
        case (_, .events) where "NIPBALS".utf8.contains(kind):
            throw error("device description line '\(text(s, s + 2))' after the events")
        case (_, .events):
            throw error("unknown line type '\(text(s, s + 2))'")
        case (UInt8(ascii: "N"), .start):
            while c < end && (bytes[c] == 0x20 || bytes[c] == 0x09) { c += 1 }
            var e = end
            while e > c && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
            guard c < e else { throw error("'N:' line without a device name") }
            name = String(decoding: UnsafeBufferPointer(rebasing: bytes[c..<e]), as: UTF8.self)
            nameLine = line
            stage = .named
            return
        case (UInt8(ascii: "N"), _):
            throw error("second 'N:' line: an evemu recording describes one device")
        case (UInt8(ascii: "I"), .named):
            for i in 0..<4 {
                id[i] = try hexField(&c, end, max: 0xffff, what: ["bus", "vendor", "product", "version"][i])
            }
            try endOfLine(c, end, after: "'I:' line")
            descriptionLine = line
            stage = .described
            return
        case (UInt8(ascii: "I"), .start):
            throw error("'I:' line before the 'N:' line")
        case (UInt8(ascii: "I"), _):
            throw error("second 'I:' line: an evemu recording describes one device")
        case (_, .start):
            throw error("expected 'N: <device name>' before '\(text(s, s + 2))' lines")
        case (_, .named):
            throw error("expected 'I: <bus> <vendor> <product> <version>' after the 'N:' line")
        case (_, .described):
            break
        }

        switch kind {
        case UInt8(ascii: "P"):
            for _ in 0..<8 { _ = try hexField(&c, end, max: 0xff, what: "property byte") }
            try endOfLine(c, end, after: "'P:' line (8 bytes)")
        case UInt8(ascii: "B"):
            let type = try hexField(&c, end, max: 0xffff, what: "event type")
            guard type <= EventLimits.evMax else {
                throw error("unknown \(EventLimits.describe(type: type)) in 'B:' line")
            }
            let offset = maskBytes[Int(type)]
            for byteIndex in 0..<8 {
                let mask = try hexField(&c, end, max: 0xff, what: "bitmask byte")
                guard mask != 0 else { continue }
                for bit in 0..<8 where mask & (1 << bit) != 0 {
                    let code = (offset + byteIndex) * 8 + bit
                    // `B: 00` lines are the device's event types (EV_SYN ... EV_MAX), not codes.
                    if type == EventType.syn {
                        guard code <= Int(EventLimits.evMax) else {
                            throw error("event type \(Hex.prefixed(code, digits: 2)) in 'B: 00' is above EV_MAX (0x1f)")
                        }
                        continue
                    }
                    if let problem = EventLimits.checkCapability(type: type, code: code) {
                        throw error(problem)
                    }
                    codes.insert(EventCode(type: type, code: UInt16(code)))
                }
            }
            try endOfLine(c, end, after: "'B:' line (a type and 8 bytes)")
            maskBytes[Int(type)] = offset + 8
            sawBitmask = true
        case UInt8(ascii: "A"):
            let code = try hexField(&c, end, max: 0xffff, what: "axis code")
            if let problem = EventLimits.checkEvent(type: EventType.abs, code: code) { throw error(problem) }
            for what in ["minimum", "maximum", "fuzz", "flat"] { _ = try int32Field(&c, end, what: "axis " + what) }
            var peek = c
            if nextToken(&peek, end) != nil { _ = try int32Field(&c, end, what: "axis resolution") }
            try endOfLine(c, end, after: "'A:' line (code, minimum, maximum, fuzz, flat, resolution)")
        case UInt8(ascii: "L"), UInt8(ascii: "S"):
            let type = kind == UInt8(ascii: "L") ? EventType.led : EventType.sw
            let what = kind == UInt8(ascii: "L") ? "LED code" : "switch code"
            let code = try hexField(&c, end, max: 0xffff, what: what)
            if let problem = EventLimits.checkEvent(type: type, code: code) { throw error(problem) }
            _ = try int32Field(&c, end, what: "state")
            try endOfLine(c, end, after: "'\(text(s, s + 2))' line (code and state)")
        default:
            throw error("unknown line type '\(text(s, s + 2))'")
        }
    }

    /// Whether `E:` starts a field after other text on the line.
    private func eventInside(_ s: Int, _ end: Int) -> Bool {
        var p = s + 1
        while p + 1 < end {
            if bytes[p] == UInt8(ascii: "E") && bytes[p + 1] == UInt8(ascii: ":") { return true }
            p += 1
        }
        return false
    }

    // MARK: Event lines

    /// Parses `<sec>.<usec> <type> <code> <value>` after `E:`.
    @inline(__always)
    private func event(_ c: inout Int, _ end: Int) throws(InputRecordingError) -> InputEvent {
        guard let stamp = nextToken(&c, end) else {
            throw error("event line without fields: expected 'E: <sec>.<usec> <type> <code> <value>'")
        }
        var p = stamp.lowerBound
        var seconds: Int64 = 0
        while p < stamp.upperBound, let digit = decimalDigit(bytes[p]) {
            seconds = seconds * 10 + Int64(digit)
            guard seconds <= Self.maxSeconds else {
                throw error("event timestamp '\(text(stamp))' is too large")
            }
            p += 1
        }
        let secondDigits = p - stamp.lowerBound
        var micros: Int64 = 0
        var microDigits = 0
        if p < stamp.upperBound && bytes[p] == UInt8(ascii: ".") {
            p += 1
            while p < stamp.upperBound, microDigits < 6, let digit = decimalDigit(bytes[p]) {
                micros = micros * 10 + Int64(digit)
                microDigits += 1
                p += 1
            }
        }
        guard secondDigits > 0 && microDigits == 6 && p == stamp.upperBound else {
            throw error(
                "invalid event timestamp '\(text(stamp))': expected seconds and six-digit microseconds"
                    + " such as 12.000250")
        }
        let type = try hexField(&c, end, max: 0xffff, what: "event type")
        let code = try hexField(&c, end, max: 0xffff, what: "event code")
        let value = try int32Field(&c, end, what: "event value")
        try endOfLine(c, end, after: "event line ('E: <sec>.<usec> <type> <code> <value>')")
        if let problem = EventLimits.checkEvent(type: type, code: code) { throw error(problem) }
        return InputEvent(
            time: Instant(microseconds: seconds * 1_000_000 + micros), type: type, code: code, value: value)
    }

    // MARK: Fields

    @inline(__always)
    private func decimalDigit(_ byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        return digit < 10 ? digit : nil
    }

    @inline(__always)
    private func hexDigit(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The next field: skips blanks, stops at a blank or a `#` comment.
    @inline(__always)
    private func nextToken(_ c: inout Int, _ end: Int) -> Range<Int>? {
        while c < end && (bytes[c] == 0x20 || bytes[c] == 0x09) { c += 1 }
        guard c < end && bytes[c] != UInt8(ascii: "#") else { return nil }
        let start = c
        while c < end && bytes[c] != 0x20 && bytes[c] != 0x09 && bytes[c] != UInt8(ascii: "#") { c += 1 }
        return start..<c
    }

    /// A hexadecimal field without `0x`, at most `max`.
    @inline(__always)
    private func hexField(_ c: inout Int, _ end: Int, max: UInt16, what: String) throws(InputRecordingError)
        -> UInt16
    {
        guard let token = nextToken(&c, end) else { throw error("missing \(what)") }
        var value: UInt32 = 0
        for p in token {
            guard let digit = hexDigit(bytes[p]) else {
                throw error("invalid \(what) '\(text(token))': expected a hexadecimal number")
            }
            value = value << 4 | UInt32(digit)
            guard value <= UInt32(max) else {
                throw error("\(what) '\(text(token))' is out of range (at most \(Hex.prefixed(max, digits: 2)))")
            }
        }
        return UInt16(truncatingIfNeeded: value)
    }

    /// A signed decimal field that fits in 32 bits.
    @inline(__always)
    private func int32Field(_ c: inout Int, _ end: Int, what: String) throws(InputRecordingError) -> Int32 {
        guard let token = nextToken(&c, end) else { throw error("missing \(what)") }
        var p = token.lowerBound
        let negative = bytes[p] == UInt8(ascii: "-")
        if negative || bytes[p] == UInt8(ascii: "+") { p += 1 }
        guard p < token.upperBound else {
            throw error("invalid \(what) '\(text(token))': expected a decimal number")
        }
        var magnitude: Int64 = 0
        while p < token.upperBound {
            guard let digit = decimalDigit(bytes[p]) else {
                throw error("invalid \(what) '\(text(token))': expected a decimal number")
            }
            magnitude = magnitude * 10 + Int64(digit)
            guard magnitude <= 1 << 31 else { throw error("\(what) '\(text(token))' does not fit in 32 bits") }
            p += 1
        }
        guard let value = Int32(exactly: negative ? -magnitude : magnitude) else {
            throw error("\(what) '\(text(token))' does not fit in 32 bits")
        }
        return value
    }

    /// Requires that only blanks or a comment follow.
    @inline(__always)
    private func endOfLine(_ c: Int, _ end: Int, after what: String) throws(InputRecordingError) {
        var c = c
        if let extra = nextToken(&c, end) {
            throw error("unexpected '\(text(extra))' at the end of the \(what)")
        }
    }

    // MARK: Errors

    private func text(_ range: Range<Int>) -> String { text(range.lowerBound, range.upperBound) }

    /// The bytes of `start..<end` for a message, shortened when long, control
    /// characters in caret notation.
    private func text(_ start: Int, _ end: Int) -> String {
        let limit = 40
        var cut = min(end, start + limit)
        while cut < end && cut > start && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        var shown = TerminalEcho.visible(UnsafeBufferPointer(rebasing: bytes[start..<cut]))
        if cut < end { shown += "…" }
        return shown
    }

    private func error(_ message: String, hint: String? = nil) -> InputRecordingError {
        InputRecordingError(file: file, line: line, message: message, hint: hint)
    }
}
