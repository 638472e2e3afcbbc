import Foundation
import Testing

@testable import SlateCore

@Suite struct SoundLibraryTests {
    func spec(_ files: [String: String], device: String = "default") -> SoundSpec {
        var spec = SoundSpec()
        spec.files = files
        spec.device = device
        return spec
    }

    @Test func builtInSoundsComeFromTheInstalledFolder() throws {
        let library = SoundLibrary(builtInFolder: "/usr/share/slate/sounds")
        #expect(try library.path(of: "shutter") == "/usr/share/slate/sounds/shutter.wav")
        #expect(try library.path(of: "begin-video-recording") == "/usr/share/slate/sounds/begin-video-recording.wav")
        #expect(try SoundLibrary(builtInFolder: "sounds/").path(of: "end-video-recording") == "sounds/end-video-recording.wav")
    }

    @Test func filesOverrideBuiltInsAndAddSounds() throws {
        let library = SoundLibrary(
            spec: spec(["shutter": "clicks/soft.wav", "trumpet": "/opt/sounds/trumpet.wav"]), builtInFolder: "/b",
            profileFolder: "/etc/slate")
        #expect(try library.path(of: "shutter") == "/etc/slate/clicks/soft.wav")
        #expect(try library.path(of: "trumpet") == "/opt/sounds/trumpet.wav")
        #expect(try library.path(of: "end-video-recording") == "/b/end-video-recording.wav")
        // Without a profile folder, relative files are relative to the working directory.
        #expect(try SoundLibrary(spec: spec(["shutter": "soft.wav"]), builtInFolder: nil).path(of: "shutter") == "soft.wav")
    }

    @Test func unknownNamesAndAMissingFolderAreErrors() {
        let library = SoundLibrary(spec: spec(["trumpet": "t.wav"]), builtInFolder: nil)
        #expect(
            throws: SoundLookupError(
                sound: "kazoo",
                message:
                    "unknown sound 'kazoo' (built in: shutter, begin-video-recording or end-video-recording; others need an entry in sounds.files)"
            )
        ) { try library.path(of: "kazoo") }
        #expect(
            throws: SoundLookupError(
                sound: "shutter",
                message: "the folder of built-in sounds was not found; set SLATE_SOUNDS to the folder holding shutter.wav"
            )
        ) { try library.path(of: "shutter") }
        #expect(throws: Never.self) { try library.path(of: "trumpet") }
    }

    @Test func folders() {
        #expect(SoundLibrary.folder(of: "rigs/pedal.yaml") == "rigs")
        #expect(SoundLibrary.folder(of: "/pedal.yaml") == "/")
        #expect(SoundLibrary.folder(of: "pedal.yaml") == nil)
        #expect(SoundLibrary.resolve("a.wav", in: ".") == "a.wav")
        #expect(SoundLibrary.resolve("a.wav", in: "/") == "/a.wav")
    }

    @Test func builtInFolderCandidates() {
        #expect(
            SoundLibrary.builtInFolderCandidates(executable: "/usr/local/bin/slate", override: nil)
                == ["/usr/local/share/slate/sounds"])
        #expect(
            SoundLibrary.builtInFolderCandidates(
                executable: "/src/slate/.build/x86_64-unknown-linux-gnu/debug/slate", override: "/mine")
                == ["/mine", "/src/slate/.build/x86_64-unknown-linux-gnu/share/slate/sounds", "/src/slate/sounds"])
        #expect(SoundLibrary.builtInFolderCandidates(executable: "/slate", override: "") == ["/share/slate/sounds"])
        #expect(SoundLibrary.builtInFolderCandidates(executable: "", override: nil) == [])
    }
}

@Suite struct SoundQueueTests {
    @Test func waitsInOrderUpToItsCapacity() {
        var queue = SoundQueue<String>(capacity: 2)
        #expect(queue.push("a", cut: false).dropped.isEmpty)
        #expect(queue.push("b", cut: false).dropped.isEmpty)
        let third = queue.push("c", cut: false)
        #expect(third.dropped == ["a"])
        #expect(!third.stopsCurrent)
        #expect(queue.pending == ["b", "c"])
        #expect(queue.pop() == "b")
        #expect(queue.pop() == "c")
        #expect(queue.pop() == nil)
        #expect(queue.isEmpty)
    }

    @Test func aCutReplacesWhatWaitsAndStopsWhatPlays() {
        var queue = SoundQueue<String>(capacity: 3)
        _ = queue.push("a", cut: false)
        _ = queue.push("b", cut: false)
        let cut = queue.push("c", cut: true)
        #expect(cut.dropped == ["a", "b"])
        #expect(cut.stopsCurrent)
        #expect(queue.pending == ["c"])
        #expect(queue.removeAll() == ["c"])
        #expect(queue.isEmpty)
    }

    @Test func capacityIsAtLeastOne() {
        var queue = SoundQueue<Int>(capacity: 0)
        _ = queue.push(1, cut: false)
        #expect(queue.push(2, cut: false).dropped == [1])
        #expect(queue.pending == [2])
    }
}
