import SlateCore
import SlateMedia
import Testing

/// Zoom and mirroring on the recording thread.
@Suite struct FrameTuningTests {
    /// A frame whose luma is its column number (mod 256), chroma flat.
    static func columns(width: Int, height: Int) -> VideoFrame {
        var frame = VideoFrame(width: width, height: height, time: Instant(microseconds: 0))
        for row in 0..<height {
            for column in 0..<width { frame.y[row * width + column] = UInt8(column % 256) }
        }
        return frame
    }

    @Test func digitalZoomRampsTowardsACentredCrop() throws {
        let tuning = FrameTuning(mirrored: false)
        #expect(tuning.aim(at: 10) == ZoomRamp.limit)
        #expect(tuning.aim(at: 2) == 2)
        let frame = Self.columns(width: 200, height: 100)
        // 5x per second: after 0.1 s the factor is 1.5, after another 0.2 s it is 2.
        let first = try tuning.apply(frame, interval: .milliseconds(100))
        let second = try tuning.apply(frame, interval: .milliseconds(200))
        #expect(first.width == 200 && first.height == 100 && second.width == 200)
        // At 2x the centre half (columns 50..<150) fills the frame: the left edge shows column ~50.
        #expect((49...51).contains(Int(second.y[0])), "\(second.y[0])")
        #expect((147...150).contains(Int(second.y[199])), "\(second.y[199])")
        // At 1.5x the crop is 132 wide from column 34.
        #expect((33...36).contains(Int(first.y[0])), "\(first.y[0])")
    }

    @Test func theCamerasOwnZoomIsSetInsteadOfCropping() throws {
        let set = Box()
        let tuning = FrameTuning(mirrored: false) { set.values.append($0) }
        _ = tuning.aim(at: 1.5)
        let frame = Self.columns(width: 64, height: 32)
        let out = try tuning.apply(frame, interval: .milliseconds(50))
        _ = try tuning.apply(frame, interval: .milliseconds(50))
        _ = try tuning.apply(frame, interval: .milliseconds(50))
        #expect(out.y == frame.y)
        #expect(set.values == [1.25, 1.5])
    }

    @Test func mirroringIsAppliedWhenAsked() throws {
        let tuning = FrameTuning(mirrored: true)
        let frame = Self.columns(width: 16, height: 4)
        #expect(try tuning.apply(frame, interval: .zero).y[0] == 15)
        tuning.mirrored = false
        #expect(try tuning.apply(frame, interval: .zero).y[0] == 0)
    }

    @Test func aZoomedFrameIsMirroredTooAndZoomingBackOutKeepsMirroring() throws {
        let tuning = FrameTuning(mirrored: true)
        let frame = Self.columns(width: 200, height: 100)
        _ = tuning.aim(at: 2)
        let zoomed = try tuning.apply(frame, interval: .seconds(1))
        // The centre half (columns 50..<150), mirrored: the left edge shows column ~149.
        #expect(
            (147...150).contains(Int(zoomed.y[0])) && (49...51).contains(Int(zoomed.y[199])), "\(zoomed.y[0]) \(zoomed.y[199])")
        _ = tuning.aim(at: 1)
        let whole = try tuning.apply(frame, interval: .seconds(1))
        #expect(whole.y[0] == 199 && whole.y[199] == 0)
    }

    final class Box: @unchecked Sendable { var values: [Double] = [] }
}
