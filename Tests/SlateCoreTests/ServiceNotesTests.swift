import Testing

@testable import SlateCore

/// What a rig tells systemd: ready once it streams or waits, its status when it changes, pings, stopping once.
@Suite struct ServiceNotesTests {
    func at(_ seconds: Int64) -> Instant { Instant(microseconds: seconds * 1_000_000) }

    @Test func readyOnceTheCameraStreamsOrIsWaitedForThenOnlyChanges() {
        var notes = ServiceNotes(watchdog: nil)
        #expect(notes.rig(camera: .opening, inputs: nil, at: at(0)) == nil)
        #expect(
            notes.rig(camera: .waiting("no back camera"), inputs: "the input devices", at: at(1))
                == "READY=1\nSTATUS=waiting for camera: no back camera; and for the input devices")
        #expect(notes.rig(camera: .waiting("no back camera"), inputs: "the input devices", at: at(2)) == nil)
        #expect(
            notes.rig(camera: .streaming("/dev/video0"), inputs: nil, at: at(3))
                == "STATUS=ready: /dev/video0 streams, the inputs are bound")
        #expect(notes.nextDeadline == nil)
        #expect(notes.stop() == "STOPPING=1\nSTATUS=stopping: closing the take in progress")
        #expect(notes.stop() == nil)
        #expect(notes.rig(camera: .waiting("gone"), inputs: nil, at: at(4)) == nil)
    }

    @Test func theWatchdogIsPingedAtHalfItsInterval() {
        var notes = ServiceNotes(watchdog: .seconds(30))
        #expect(notes.rig(camera: .opening, inputs: nil, at: at(0)) == "WATCHDOG=1")
        #expect(notes.nextDeadline == at(15))
        #expect(notes.rig(camera: .opening, inputs: nil, at: at(14)) == nil)
        #expect(
            notes.rig(camera: .streaming("testpattern"), inputs: nil, at: at(15))
                == "READY=1\nWATCHDOG=1\nSTATUS=ready: testpattern streams, the inputs are bound")
        #expect(notes.nextDeadline == at(30))
        _ = notes.stop()
        #expect(notes.nextDeadline == nil)
    }
}
