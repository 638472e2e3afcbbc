/// Comparisons of secrets that take a time that does not depend on where they differ.
public enum ConstantTime {
    /// Whether `given` is `expected`, reading every byte of `expected` whatever `given` is.
    public static func equal(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8), expected = Array(expected.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }
}
