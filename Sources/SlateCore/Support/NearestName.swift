/// The name a misspelt one most likely meant: `take.toggel` → `take.toggle`.
public enum NearestName {
    /// The candidate nearest to `name` in edits (insertions, deletions,
    /// substitutions and swaps of neighbours), if it is at most two edits and
    /// less than half of `name` away; nil otherwise, and for an exact match.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let other = Array(candidate.lowercased().unicodeScalars)
            // More than two edits apart by length alone: no table (a long word costs nothing).
            guard abs(other.count - typed.count) <= 2 else { continue }
            let distance = edits(typed, other)
            if distance <= 2, distance * 2 < typed.count,
                distance < best?.distance ?? .max || (distance == best?.distance && candidate < best!.name)
            {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// `" (did you mean take.toggle?)"`, or nothing.
    public static func hint(for name: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: name, among: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// The optimal string alignment distance between `a` and `b`.
    private static func edits(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
