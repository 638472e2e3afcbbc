import Foundation
import SlateTestSupport
import Testing

@testable import SlateMedia

/// libavfilter and the thirty libraries it pulls in are not Slate's until a
/// filter graph is built: the executable does not link it, and it loads on
/// the first graph.
@Suite struct LinkedLibrariesTests {
    /// The libraries the dynamic linker loads with slate (ldd), none of them libavfilter.
    @Test func slateDoesNotLinkLibavfilter() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [MediaFiles.slate]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        try #require(ldd.terminationStatus == 0 && text.contains("libavcodec.so"), "ldd cannot read \(MediaFiles.slate)")
        #expect(!text.contains("libavfilter.so"), "\(text)")
    }

    @Test func libavfilterLoadsWithTheFirstGraph() throws {
        let graph = try FilterGraph(width: 64, height: 36, chain: "hflip")
        #expect(graph.width == 64)
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        #expect(maps.contains("libavfilter.so"))
    }
}
