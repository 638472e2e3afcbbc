/// What a terminal echoes into a recording copied from it: escape sequences
/// for keys pressed while recording (`ESC O P` for F1, `ESC [ 1 5 ; 2 ~` for
/// shift-F5), raw or in the caret notation a terminal shows them in (`^[OP`,
/// `^[[15;2~`), and other control characters (`^C`, a raw BEL).
enum TerminalEcho {
    private static let escape: UInt8 = 0x1B
    private static let caret = UInt8(ascii: "^")

    /// The length of the echo at `start` and the blanks after it; 0 when the
    /// bytes there are not terminal echo.
    static func prefixLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> Int
    where Bytes.Index == Int {
        var p = start
        var found = false
        while p < end, let length = sequenceLength(bytes, p, end) {
            found = true
            p += length
            while p < end && (bytes[p] == 0x20 || bytes[p] == 0x09) { p += 1 }
        }
        return found ? p - start : 0
    }

    /// The length of one escape sequence or control character at `p`, or nil.
    private static func sequenceLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ p: Int, _ end: Int)
        -> Int?
    where Bytes.Index == Int {
        let first = bytes[p]
        var q: Int
        if first == escape {
            q = p + 1
        } else if first == caret, p + 1 < end {
            let next = bytes[p + 1]
            guard next == UInt8(ascii: "[") else {
                // `^C`, `^@` ... `^_`, `^?`: a control character in caret notation.
                return (0x40...0x5F).contains(next) || next == UInt8(ascii: "?") ? 2 : nil
            }
            q = p + 2
        } else if (first < 0x20 && first != 0x09) || first == 0x7F {
            return 1
        } else {
            return nil
        }
        // After ESC: CSI (`[` parameters, intermediates, a final byte), SS3 (`O` and
        // one byte), OSC (`]` up to BEL or ESC \), or one byte.
        guard q < end else { return q - p }
        switch bytes[q] {
        case UInt8(ascii: "["):
            q += 1
            while q < end && (0x30...0x3F).contains(bytes[q]) { q += 1 }
            while q < end && (0x20...0x2F).contains(bytes[q]) { q += 1 }
            guard q < end, (0x40...0x7E).contains(bytes[q]) else { return nil }
            return q + 1 - p
        case UInt8(ascii: "O"):
            guard q + 1 < end, (0x40...0x7E).contains(bytes[q + 1]) else { return nil }
            return q + 2 - p
        case UInt8(ascii: "]"):
            q += 1
            while q < end {
                if bytes[q] == 0x07 { return q + 1 - p }
                if bytes[q] == escape, q + 1 < end, bytes[q + 1] == UInt8(ascii: "\\") { return q + 2 - p }
                q += 1
            }
            return nil
        case 0x20...0x7E:
            return q + 1 - p
        default:
            return nil
        }
    }

    /// The bytes as text for a message: control characters in caret notation
    /// (`^[`, `^C`), so that printing a message never drives the terminal.
    static func visible<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var shown: [UInt8] = []
        shown.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte < 0x20 && byte != 0x09 {
                shown += [caret, byte + 0x40]
            } else if byte == 0x7F {
                shown += [caret, UInt8(ascii: "?")]
            } else {
                shown.append(byte)
            }
        }
        return String(decoding: shown, as: UTF8.self)
    }
}
