import SlateYAML

/// Reader for `libinput record` YAML files (file format version 1).
///
/// Each entry of `devices` becomes a ``RecordedDevice``: its identity from
/// `evdev` (`name`, `id`, `codes`) and `udev.properties`, its events from the
/// `evdev` frames in `events`. Other event kinds (`libinput`, `hid`) and
/// unknown keys are ignored. Keys are kept as recorded: without
/// `--show-keycodes`, libinput record writes most keys as `KEY_A`.
///
/// Tab indentation (YAML allows only spaces) is read as tab stops, and a file
/// cut off in its last line or frame is read up to there, each with a warning;
/// without `codes`, a device's codes are those of its events.
public enum LibinputRecording {
    /// Parses a libinput record file; `file` names the input in error messages.
    public static func parse(_ text: String, file: String) throws(InputRecordingError) -> InputRecording {
        var parser = LibinputParser(file: file)
        return try parser.parse(text)
    }
}

private struct LibinputParser {
    /// A recording's tree: libinput's nests 8 deep; aliases, which it never
    /// writes, are refused; its own files, about ten bytes a number, stay
    /// under 8 million nodes up to the 64 MiB `FileReading` reads.
    static let limits = YAMLLimits(depth: 16, nodes: 8_000_000, bytes: 64 << 20, aliases: false)
    let file: String
    var warnings: InputRecordingWarnings

    init(file: String) {
        self.file = file
        warnings = InputRecordingWarnings(file: file)
    }

    /// Tab widths tried, in order, for a file indented with tabs.
    static let tabWidths = [8, 4, 2]

    /// Reads the text as it is; when that fails and it has tabs, as if each
    /// tab were spaces up to the next tab stop, for each width in `tabWidths`.
    mutating func parse(_ text: String) throws(InputRecordingError) -> InputRecording {
        var failure: InputRecordingError
        do {
            return try parseDocument(text)
        } catch {
            failure = error
        }
        guard let tabLine = Self.firstTabLine(text) else { throw failure }
        for width in Self.tabWidths {
            var attempt = LibinputParser(file: file)
            attempt.warnings.add(
                line: tabLine,
                "tab characters in YAML, which indents with spaces only: read as tab stops every \(width) columns")
            if let recording = try? attempt.parseDocument(Self.expandingTabs(text, width: width)) { return recording }
        }
        if failure.hint == nil, Self.line(failure.line, of: text).contains(0x09) {
            failure.hint = "line \(failure.line) is indented with tabs: indent with spaces"
        }
        throw failure
    }

    /// The bytes of a 1-based line.
    static func line(_ number: Int, of text: String) -> ArraySlice<UInt8> {
        let lines = Array(text.utf8).split(separator: 0x0A, maxSplits: number, omittingEmptySubsequences: false)
        return number >= 1 && number <= lines.count ? lines[number - 1] : []
    }

    /// Reads a document; one whose YAML breaks off at its very end (a file cut
    /// in the middle of its last line) is read without that line when the rest
    /// reads, with a warning.
    private mutating func parseDocument(_ text: String, mayDropLastLine: Bool = true) throws(InputRecordingError)
        -> InputRecording
    {
        let composed: YAMLNode?
        do {
            composed = try YAMLComposer.compose(text, limits: Self.limits)
        } catch {
            let failure = yamlError(error)
            if mayDropLastLine, Self.breaksOffAtTheEnd(error, failure, text),
                let (shortened, last) = Self.droppingLastLine(text)
            {
                var retry = self
                retry.warnings.add(line: last, "the file ends early: the half-written last line is dropped")
                if let recording = try? retry.parseDocument(shortened, mayDropLastLine: false) { return recording }
            }
            throw failure
        }
        return try read(composed)
    }

    /// Whether libyaml stopped at the end of the text, as it does in a line cut
    /// short (an open `[` or quote): at the end of input, or anywhere in a last
    /// line that has no newline.
    private static func breaksOffAtTheEnd(_ error: YAMLError, _ failure: InputRecordingError, _ text: String) -> Bool {
        switch error.kind {
        case .scanner, .parser: break
        default: return false
        }
        var lines = 0
        var lastContent = 0
        for byte in text.utf8 {
            if byte == 0x0A {
                lines += 1
            } else if byte != 0x20 && byte != 0x09 && byte != 0x0D {
                lastContent = lines + 1
            }
        }
        return failure.line > lastContent || (text.utf8.last != 0x0A && failure.line >= lastContent)
    }

    private mutating func read(_ composed: YAMLNode?) throws(InputRecordingError) -> InputRecording {
        guard let root = composed else {
            throw InputRecordingError(file: file, line: 1, message: "empty recording: expected 'version: 1' and 'devices:'")
        }
        guard case .mapping(let top) = root else {
            throw fail(root, "expected a YAML mapping with 'version' and 'devices' keys at the top level")
        }

        guard let version = value(top, "version") else {
            throw fail(root, "missing 'version' key: expected 'version: 1'")
        }
        let number = try integer(version, "version", in: Int64.min...Int64.max)
        guard number == 1 else { throw fail(version, "unsupported libinput record version \(number) (expected 1)") }

        guard let devicesNode = value(top, "devices") else {
            throw fail(root, "missing 'devices' key: expected a list of recorded devices")
        }
        guard case .sequence(let deviceNodes) = devicesNode else {
            throw fail(devicesNode, "devices: expected a list of recorded devices")
        }
        if let ndevices = value(top, "ndevices") {
            let n = try integer(ndevices, "ndevices", in: 0...Int64(Int32.max))
            if n > Int64(deviceNodes.count) {
                warnings.add(
                    line: ndevices.mark?.line ?? 1,
                    "ndevices is \(n) but 'devices' lists \(deviceNodes.count): the file ends early")
            } else if n < Int64(deviceNodes.count) {
                throw fail(ndevices, "ndevices is \(n) but 'devices' lists \(deviceNodes.count)")
            }
        }
        var devices: [RecordedDevice] = []
        for (index, node) in deviceNodes.enumerated() {
            devices.append(try device(node, path: "devices[\(index)]"))
        }
        return InputRecording(devices: devices, warnings: warnings.all)
    }

    // MARK: Text

    /// The 1-based line of the first tab character, or nil.
    static func firstTabLine(_ text: String) -> Int? {
        var line = 1
        for byte in text.utf8 {
            if byte == 0x09 { return line }
            if byte == 0x0A { line += 1 }
        }
        return nil
    }

    /// The text with each tab outside quotes replaced by spaces up to the next
    /// multiple of `width` columns.
    static func expandingTabs(_ text: String, width: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 64)
        var column = 0
        var quote: UInt8?
        var escaped = false
        for byte in text.utf8 {
            switch byte {
            case 0x0A:
                out.append(byte)
                column = 0
                quote = nil
                continue
            case 0x09 where quote == nil:
                let spaces = width - column % width
                out += repeatElement(0x20, count: spaces)
                column += spaces
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if quote == nil {
                    quote = byte
                } else if quote == byte && !escaped {
                    quote = nil
                }
            default:
                break
            }
            escaped = quote == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") && !escaped
            out.append(byte)
            if byte & 0xC0 != 0x80 { column += 1 }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text without its last non-blank line, and that line's number; nil
    /// when there is no line before it.
    static func droppingLastLine(_ text: String) -> (String, Int)? {
        let bytes = Array(text.utf8)
        var end = bytes.count
        while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        guard end > 0, let newline = bytes[..<end].lastIndex(of: 0x0A) else { return nil }
        let line = bytes[...newline].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        return (String(decoding: bytes[...newline], as: UTF8.self), line)
    }

    // MARK: Devices

    private mutating func device(_ node: YAMLNode, path: String) throws(InputRecordingError) -> RecordedDevice {
        guard case .mapping(let map) = node else {
            throw fail(node, "\(path): expected a device mapping with 'evdev' and 'events'")
        }
        guard let evdevNode = value(map, "evdev") else { throw fail(node, "\(path): missing 'evdev' key") }
        guard case .mapping(let evdev) = evdevNode else {
            throw fail(evdevNode, "\(path).evdev: expected a mapping with 'name', 'id' and 'codes'")
        }

        guard let nameNode = value(evdev, "name") else { throw fail(evdevNode, "\(path).evdev: missing 'name' key") }
        guard case .scalar(let nameScalar) = nameNode, !nameScalar.string.isEmpty else {
            throw fail(nameNode, "\(path).evdev.name: expected the device name")
        }

        guard let idNode = value(evdev, "id") else { throw fail(evdevNode, "\(path).evdev: missing 'id' key") }
        let idLabels = ["bus", "vendor", "product", "version"]
        guard case .sequence(let idItems) = idNode, idItems.count == idLabels.count else {
            throw fail(idNode, "\(path).evdev.id: expected a list of 4 numbers [bus, vendor, product, version]")
        }
        var id: [UInt16] = []
        for (item, label) in zip(idItems, idLabels) {
            id.append(UInt16(try integer(item, "\(path).evdev.id \(label)", in: 0...0xffff)))
        }

        var codes = Set<EventCode>()
        let codesNode = value(evdev, "codes")
        if let codesNode {
            try readCodes(codesNode, path: "\(path).evdev.codes", into: &codes)
        }
        if let absinfo = value(evdev, "absinfo") { try checkAbsinfo(absinfo, path: "\(path).evdev.absinfo") }
        if let properties = value(evdev, "properties") {
            for item in try list(properties, "\(path).evdev.properties", expected: "a list of property numbers") {
                _ = try integer(item, "\(path).evdev.properties entry", in: 0...Int64(EventLimits.inputPropMax))
            }
        }

        var udev: [String: String] = [:]
        if let udevNode = value(map, "udev") {
            udev = try udevProperties(udevNode, path: "\(path).udev")
        }

        var events: [InputEvent] = []
        if let eventsNode = value(map, "events") {
            events = try readEvents(eventsNode, path: "\(path).events")
        }

        var described = RecordedDevice.Description.all
        if codesNode == nil {
            described.remove(.codes)
            codes = RecordedDevice.codes(of: events)
            if !codes.isEmpty {
                warnings.add(
                    line: evdevNode.mark?.line ?? 1,
                    "\(path).evdev has no 'codes': the device's codes are taken from the events it sends ("
                        + RecordedDevice.summary(codes) + ")")
            }
        }
        let identity = DeviceIdentity(
            name: nameScalar.string, bus: id[0], vendor: id[1], product: id[2], version: id[3],
            codes: codes, udev: udev)
        return RecordedDevice(identity: identity, events: events, described: described)
    }

    private func readCodes(_ node: YAMLNode, path: String, into codes: inout Set<EventCode>) throws(InputRecordingError) {
        if isNull(node) { return }
        guard case .mapping(let map) = node else {
            throw fail(node, "\(path): expected a mapping from event type to a list of codes")
        }
        for (key, list) in map {
            let type = UInt16(try integer(key, "\(path) event type", in: 0...Int64(EventLimits.evMax)))
            for item in try self.list(list, "\(path).\(type)", expected: "a list of event codes") {
                let code = try integer(item, "\(path).\(type) code", in: 0...0xffff)
                if let problem = EventLimits.checkCapability(type: type, code: Int(code)) {
                    throw fail(item, "\(path).\(type): \(problem)")
                }
                if type != EventType.syn { codes.insert(EventCode(type: type, code: UInt16(code))) }
            }
        }
    }

    private func checkAbsinfo(_ node: YAMLNode, path: String) throws(InputRecordingError) {
        if isNull(node) { return }
        guard case .mapping(let map) = node else {
            throw fail(node, "\(path): expected a mapping from axis code to [min, max, fuzz, flat, resolution]")
        }
        for (key, info) in map {
            let code = UInt16(try integer(key, "\(path) axis code", in: 0...0xffff))
            if let problem = EventLimits.checkEvent(type: EventType.abs, code: code) {
                throw fail(key, "\(path): \(problem)")
            }
            guard case .sequence(let items) = info, items.count == 5 || items.count == 6 else {
                throw fail(info, "\(path).\(code): expected [min, max, fuzz, flat, resolution]")
            }
            for item in items {
                _ = try integer(item, "\(path).\(code) entry", in: Int64(Int32.min)...Int64(Int32.max))
            }
        }
    }

    private func udevProperties(_ node: YAMLNode, path: String) throws(InputRecordingError) -> [String: String] {
        if isNull(node) { return [:] }
        guard case .mapping(let map) = node else {
            throw fail(node, "\(path): expected a mapping with 'properties'")
        }
        guard let properties = value(map, "properties") else { return [:] }
        var result: [String: String] = [:]
        for item in try list(properties, "\(path).properties", expected: "a list of KEY=value strings") {
            guard case .scalar(let scalar) = item, let equals = scalar.string.firstIndex(of: "="),
                equals != scalar.string.startIndex
            else {
                throw fail(item, "\(path).properties: expected 'KEY=value', found \(describe(item))")
            }
            result[String(scalar.string[..<equals])] = String(scalar.string[scalar.string.index(after: equals)...])
        }
        return result
    }

    // MARK: Events

    private mutating func readEvents(_ node: YAMLNode, path: String) throws(InputRecordingError) -> [InputEvent] {
        var events = RecordedEvents()
        for (index, entry) in try list(node, path, expected: "a list of event frames such as '- evdev: [...]'")
            .enumerated()
        {
            guard case .mapping(let map) = entry else {
                throw fail(entry, "\(path)[\(index)]: expected an event frame such as '- evdev: [...]'")
            }
            guard let frame = value(map, "evdev") else { continue }  // libinput, hid, ...
            let framePath = "\(path)[\(index)].evdev"
            for (eventIndex, item) in try list(frame, framePath, expected: "a list of [sec, usec, type, code, value]")
                .enumerated()
            {
                events.append(
                    try event(item, path: "\(framePath)[\(eventIndex)]"), line: item.mark?.line ?? 1,
                    warnings: &warnings)
            }
        }
        return events.finish(warnings: &warnings)
    }

    private func event(_ node: YAMLNode, path: String) throws(InputRecordingError) -> InputEvent {
        guard case .sequence(let items) = node, items.count == 5 else {
            throw fail(node, "\(path): expected [sec, usec, type, code, value]")
        }
        let seconds = try integer(items[0], "\(path) sec", in: 0...(Int64.max / 1_000_000 - 1))
        let micros = try integer(items[1], "\(path) usec", in: 0...999_999)
        let type = UInt16(try integer(items[2], "\(path) type", in: 0...0xffff))
        let code = UInt16(try integer(items[3], "\(path) code", in: 0...0xffff))
        let value = Int32(try integer(items[4], "\(path) value", in: Int64(Int32.min)...Int64(Int32.max)))
        if let problem = EventLimits.checkEvent(type: type, code: code) { throw fail(node, "\(path): \(problem)") }
        return InputEvent(
            time: Instant(microseconds: seconds * 1_000_000 + micros), type: type, code: code, value: value)
    }

    // MARK: Nodes

    private func value(_ map: YAMLNode.Mapping, _ key: String) -> YAMLNode? {
        for (k, v) in map where k.scalar?.string == key { return v }
        return nil
    }

    private func isNull(_ node: YAMLNode) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The items of a sequence; an empty (null) value is an empty list.
    private func list(_ node: YAMLNode, _ path: String, expected: String) throws(InputRecordingError) -> [YAMLNode] {
        switch node {
        case .sequence(let sequence): return Array(sequence)
        case _ where isNull(node): return []
        default: throw fail(node, "\(path): expected \(expected), found \(describe(node))")
        }
    }

    /// A decimal integer scalar within `range`.
    private func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int64>) throws(InputRecordingError) -> Int64 {
        guard case .scalar(let scalar) = node else {
            throw fail(node, "\(what): expected a number, found \(describe(node))")
        }
        let text = scalar.string
        var digits = text.utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        var magnitude: Int64 = 0
        var tooLarge = false
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else {
                throw fail(node, "\(what): expected a decimal number, found \(describe(node))")
            }
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(Int64(digit))
            if o1 || o2 { tooLarge = true } else { magnitude = sum }
        }
        guard !digits.isEmpty else {
            throw fail(node, "\(what): expected a decimal number, found \(describe(node))")
        }
        let number = negative ? -magnitude : magnitude
        guard !tooLarge, range.contains(number) else {
            throw fail(node, "\(what) \(short(text)) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return number
    }

    private func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): "'\(short(scalar.string))'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    private func short(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    // MARK: Errors

    private func fail(_ node: YAMLNode, _ message: String) -> InputRecordingError {
        InputRecordingError(file: file, line: node.mark?.line ?? 1, message: message)
    }

    private func yamlError(_ error: YAMLError) -> InputRecordingError {
        let line = max(error.mark.line, 1)
        switch error.kind {
        case .duplicateKeys(let keys):
            let names = keys.map { "'\(short($0))'" }.joined(separator: ", ")
            return InputRecordingError(file: file, line: line, message: "duplicate key \(names)")
        case .alias:
            // libinput never writes one, and an alias could make a small file expand into an enormous tree.
            return InputRecordingError(
                file: file, line: line, message: "YAML aliases ('*name') are not supported in libinput recordings")
        default:
            let context = error.context.map { " (\($0))" } ?? ""
            return InputRecordingError(file: file, line: line, message: "invalid YAML: \(error.problem)\(context)")
        }
    }
}
