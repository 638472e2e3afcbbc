import Testing

@testable import SlateWeb

/// Where the page's files are looked for: the override, the installed
/// prefix's share folder, and for a build under `.build` its source tree.
@Suite struct PageFilesTests {
    @Test func aBuildInTheSourceTreeReadsTheSourcesPage() {
        #expect(
            PageFiles.folderCandidates(executable: "/src/slate/.build/x86_64-unknown-linux-gnu/debug/slate", override: nil)
                == ["/src/slate/.build/x86_64-unknown-linux-gnu/share/slate/page", "/src/slate/Sources/SlateWeb/Page"])
        #expect(
            PageFiles.folderCandidates(executable: "/src/slate/.build/release/slate", override: "/tmp/page")
                == ["/tmp/page", "/src/slate/.build/share/slate/page", "/src/slate/Sources/SlateWeb/Page"])
    }

    @Test func anInstalledSlateReadsOnlyItsPrefixsPage() {
        #expect(PageFiles.folderCandidates(executable: "/usr/bin/slate", override: nil) == ["/usr/share/slate/page"])
        #expect(PageFiles.folderCandidates(executable: "/slate", override: "") == ["/share/slate/page"])
    }

    @Test func thePageOfThisBuildLoads() throws {
        let page = try PageFiles.load()
        #expect(page.files.keys.sorted() == PageFiles.names.keys.sorted())
    }
}
