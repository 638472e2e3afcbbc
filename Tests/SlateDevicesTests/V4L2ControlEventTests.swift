import Foundation
import SlateCore
import SlateDevices
import SlateSystem
import Testing

/// Control events from vivid while it streams; tests/vm/scenario-controls.sh runs them in the rig VM.
@Suite(.serialized) struct V4L2ControlEventTests {
    /// vivid's first capture node, when this machine has one.
    static let vivid: String? = V4L2Camera.devicePaths().first { path in
        let name = (try? String(contentsOfFile: "/sys/class/video4linux/\(path.dropFirst(5))/name", encoding: .utf8)) ?? ""
        return name.hasPrefix("vivid") && name.contains("vid-cap")
    }

    /// vivid's `Read-Only Integer 32 Bits`, which counts frames while it streams.
    static let readOnlyCounter = CameraControl.ID(0x0098_F90C)

    /// What one streaming read saw.
    struct Read {
        var seen: [Int64] = []
        /// vivid counts its frames in a read-only control: the driver's own changes.
        var counted: [Int64] = []
        var frames: [UInt32] = []
        var dropped = 0

        /// Whether every frame vivid made came through, in order.
        var isWhole: Bool { dropped == 0 && zip(frames, frames.dropFirst()).allSatisfy { $1 == $0 + 1 } }
    }

    @Test(.enabled(if: vivid != nil, "needs vivid: the rig VM's controls scenario runs it"), .timeLimit(.minutes(1)))
    func changesWakeTheWaitBetweenFramesAndNoFrameIsLost() throws {
        let path = try #require(Self.vivid)
        let values: [Int64] = [11, 22, 33]
        // A frame the wait loses is lost on every read; one a starved machine loses (vivid's own thread runs late and
        // skips sequence numbers) is lost once. So a read with a gap is read again, at most three times.
        var reads: [Read] = []
        repeat {
            let read = try stream(path, setting: values)
            #expect(read.seen == values)
            #expect(read.counted.count > 10 && read.counted == read.counted.sorted(), "\(read.counted)")
            reads.append(read)
        } while !reads.last!.isWhole && reads.count < 3
        #expect(reads.last!.isWhole, "\(reads.map(\.frames))")
    }

    /// Streams 45 frames or more from `path` while another descriptor sets brightness to each of `values`, one every
    /// ten frames.
    func stream(_ path: String, setting values: [Int64]) throws -> Read {
        let camera = try V4L2Camera(path: path)
        let subscribed = try camera.subscribeControlEvents()
        #expect(subscribed.contains { $0.id == .brightness } && !subscribed.contains { $0.kind == .button })
        let mode = try #require(try camera.modes().first { $0.width == 320 && $0.height == 180 })
        try camera.configure(mode: mode, interval: Fraction(1, 30))
        try camera.start()
        defer { camera.stop() }
        // Another descriptor, as another program would have: its changes are the camera's events.
        let other = try V4L2Camera(path: path)
        defer { try? other.set(.brightness, 128) }
        let mail = try Wakeup()
        var read = Read()
        var lastSet = 0
        while read.frames.count < 45 || read.seen.count < values.count {
            // A change every ten frames, once the one before it came back.
            if read.frames.count >= 10 * (read.seen.count + 1) && lastSet == read.seen.count && lastSet < values.count {
                try other.set(.brightness, values[lastSet])
                lastSet += 1
            }
            switch try camera.waitForFrame(orMail: mail.fd) {
            case .controls:
                for change in try camera.controlChanges() {
                    if change.id == .brightness {
                        #expect(change.what == .value && change.isEnabled)
                        read.seen.append(change.value)
                    } else if change.id == Self.readOnlyCounter {
                        #expect(change.what == .value && !change.isEnabled)
                        read.counted.append(change.value)
                    } else {
                        // Streaming grabs the controls that change the format (cropping, scaling).
                        #expect(change.what == .flags && change.flags & CameraControl.Flag.grabbed != 0, "\(change)")
                    }
                }
            case .frame:
                if let frame = try camera.nextFrame() { read.frames.append(frame.sequence) }
            case .mail: Issue.record("the mailbox was never rung")
            case .timedOut: continue
            }
            try #require(read.frames.count < 300, "the changes never came: \(read.seen)")
        }
        read.dropped = camera.droppedFrames
        #expect(try camera.controlChanges().allSatisfy { $0.id != .brightness }, "nothing left")
        return read
    }

    @Test(.enabled(if: vivid != nil, "needs vivid: the rig VM's controls scenario runs it"))
    func changesArriveWhileNotStreamingAndTheirOwnAreNotReported() throws {
        let path = try #require(Self.vivid)
        let camera = try V4L2Camera(path: path)
        try camera.subscribeControlEvents()
        try camera.set(.hue, 5)
        #expect(try camera.controlChanges().isEmpty, "its own change")
        let other = try V4L2Camera(path: path)
        try other.set(.hue, -7)
        let ready = try Syscall.pollEvents([(camera.fd, .priority)], timeout: 5000).get()
        #expect(ready == [.priority])
        let changes = try camera.controlChanges()
        #expect(changes.map { [Int64($0.id.rawValue), $0.value] } == [[Int64(CameraControl.ID.hue.rawValue), -7]])
        try camera.set(.hue, 0)
    }
}
