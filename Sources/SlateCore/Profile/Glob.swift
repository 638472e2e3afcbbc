/// A shell-style pattern (`fnmatch` without flags): `*`, `?` and `[...]` classes
/// (with `!` or `^` negation and ranges). Used for device names, phys and udev values.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    private let scalars: [Unicode.Scalar]

    public init(_ pattern: String) {
        self.pattern = pattern
        self.scalars = Array(pattern.unicodeScalars)
    }

    public var description: String { pattern }

    public func matches(_ text: String) -> Bool {
        let subject = Array(text.unicodeScalars)
        var p = 0, s = 0
        var starP = -1, starS = 0
        while s < subject.count {
            if p < scalars.count, let next = step(at: p, matching: subject[s]) {
                p = next
                s += 1
            } else if p < scalars.count, scalars[p] == "*" {
                starP = p
                starS = s
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starS += 1
                s = starS
            } else {
                return false
            }
        }
        while p < scalars.count, scalars[p] == "*" { p += 1 }
        return p == scalars.count
    }

    /// If the pattern element at `p` matches `c` (not `*`), the index after it.
    private func step(at p: Int, matching c: Unicode.Scalar) -> Int? {
        switch scalars[p] {
        case "*": return nil
        case "?": return p + 1
        case "[": return classEnd(from: p, matching: c)
        case "\\" where p + 1 < scalars.count: return scalars[p + 1] == c ? p + 2 : nil
        default: return scalars[p] == c ? p + 1 : nil
        }
    }

    /// Matches a `[...]` class starting at `p`; an unterminated `[` is a literal.
    private func classEnd(from p: Int, matching c: Unicode.Scalar) -> Int? {
        var i = p + 1
        let negated = i < scalars.count && (scalars[i] == "!" || scalars[i] == "^")
        if negated { i += 1 }
        var matched = false
        var first = true
        while i < scalars.count, scalars[i] != "]" || first {
            first = false
            let low = scalars[i]
            if i + 2 < scalars.count, scalars[i + 1] == "-", scalars[i + 2] != "]" {
                if low.value <= c.value && c.value <= scalars[i + 2].value { matched = true }
                i += 3
            } else {
                if low == c { matched = true }
                i += 1
            }
        }
        guard i < scalars.count else { return scalars[p] == c ? p + 1 : nil }
        return matched != negated ? i + 1 : nil
    }
}
