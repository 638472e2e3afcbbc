import Testing

@testable import SlateCore

/// What a `Range` field asks of a file, as a phone's player sends it to seek.
@Suite struct ByteRangeTests {
    @Test(
        arguments: [
            (nil, ByteRange.whole), ("bytes=0-", .part(first: 0, last: 999)), ("bytes=0-99", .part(first: 0, last: 99)),
            ("bytes=500-2000", .part(first: 500, last: 999)), ("bytes=-100", .part(first: 900, last: 999)),
            ("bytes=-5000", .part(first: 0, last: 999)), ("bytes=999-999", .part(first: 999, last: 999)),
            ("bytes=1000-", .unsatisfiable), ("bytes=-0", .unsatisfiable), ("bytes=5-4", .whole), ("bytes=2000-5", .whole),
            ("bytes=0-1,5-6", .whole),
            ("items=0-1", .whole), ("bytes=a-b", .whole), ("bytes=-", .whole), ("bytes=+1-2", .whole),
            ("bytes=99999999999999999999-", .whole), ("bytes=0-99999999999999999", .part(first: 0, last: 999)),
        ] as [(String?, ByteRange)])
    func aRangeOfAThousandBytes(_ header: String?, _ expected: ByteRange) {
        #expect(ByteRange.parse(header, size: 1000) == expected, "\(header ?? "nil")")
    }

    @Test func anEmptyFileHasNoRangeToServe() {
        #expect(ByteRange.parse("bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-10", size: 0) == .whole)
        #expect(ByteRange.parse(nil, size: 0) == .whole)
    }
}
