import SlateCore
import Testing

@testable import SlateDaemon

@Suite struct CameraReachTests {
    func zoom(_ range: ClosedRange<Int64>) -> CameraControl {
        CameraControl(
            id: .zoomAbsolute, name: "Zoom, Absolute", kind: .integer, minimum: range.lowerBound,
            maximum: range.upperBound, step: 1, defaultValue: range.lowerBound, value: range.lowerBound)
    }

    @Test func aCamerasOwnZoomReachesItsRangeReadAsFocalLengthsAtMostSixTimes() {
        #expect(CameraOpener.reach(of: zoom(100...500)) == 5)
        #expect(CameraOpener.reach(of: zoom(100...1000)) == 6)
        #expect(CameraOpener.reach(of: zoom(0...10)) == 6)
        #expect(CameraOpener.reach(of: zoom(3...3)) == 1)
    }
}
