import Foundation
import Testing

@testable import SlateCore

/// Rates kept exact from the profile to the timecode: parsing, intervals, frame times, the cameras' near rates.
@Suite struct FrameRateTests {
    @Test func theOfferedRatesByNameAndAnyRateAsAFraction() {
        #expect(FrameRate.offered.map(\.description) == ["23.976", "24", "25", "29.97", "30", "48", "50", "59.94", "60"])
        #expect(FrameRate("29.97") == FrameRate(frames: 30000, per: 1001))
        #expect(FrameRate("23.976") == .ntsc(24) && FrameRate("59.94") == .ntsc(60))
        #expect(FrameRate("30000/1001") == .ntsc(30) && FrameRate("50/2") == 25 && FrameRate("25") == 25)
        // A name that is not an offered rate's is no rate: 29.976 is a typo, not 29.976 fps.
        for text in ["29.976", "", "0", "-25", "25/0", "1/2/3", "x", "30.0", "2000000"] {
            #expect(FrameRate(text) == nil, "\(text)")
        }
    }

    @Test func intervalsFrameTimesAndTimecodesCount() {
        #expect(FrameRate.ntsc(30).interval == Fraction(1001, 30000) && FrameRate(25).interval == Fraction(1, 25))
        #expect(FrameRate(interval: Fraction(1001, 30000)) == .ntsc(30) && FrameRate(interval: Fraction(0, 1)) == nil)
        // 30000 frames at 29.97 last 1001 s exactly; the frame showing at 1 s is the 30th (29.97 rounds to 30).
        #expect(FrameRate.ntsc(30).microseconds(toFrame: 30000) == 1_001_000_000)
        #expect(FrameRate.ntsc(30).frame(at: 1_000_000) == 30 && FrameRate.ntsc(30).frame(at: 1_001_000_000) == 30000)
        #expect(FrameRate(25).frameLength == .milliseconds(40) && FrameRate.ntsc(30).frameLength == .microseconds(33_366))
        #expect(FrameRate.ntsc(30).nominal == 30 && FrameRate.ntsc(24).nominal == 24 && FrameRate.ntsc(60).dropsFrames)
        #expect(!FrameRate.ntsc(24).dropsFrames && !FrameRate(30).dropsFrames)
        #expect(FrameRate.ntsc(30) < 30 && FrameRate(25) < .ntsc(30))
    }

    /// UVC cameras count intervals in 100 ns: 333333 is 30 fps and 333667 is 29.97, not 30.00003 and 29.9700.
    @Test func aCamerasNearRateIsTheStandardOne() {
        #expect(FrameRate(interval: Fraction(333_333, 10_000_000))?.standard == 30)
        #expect(FrameRate(interval: Fraction(333_667, 10_000_000))?.standard == .ntsc(30))
        #expect(FrameRate(interval: Fraction(416_667, 10_000_000))?.standard == 24)
        // 7.5 fps is no offered rate, but UVC's 1333333×100 ns is 7.5, not 10000000/1333333.
        #expect(FrameRate(interval: Fraction(1_333_333, 10_000_000))?.standard == FrameRate(frames: 15, per: 2))
        // An interval libav's 32-bit fractions cannot hold is none.
        #expect(FrameRate(interval: Fraction(1, 5_000_000_000)) == nil)
        #expect(FrameRate(frames: 15, per: 2).description == "7.5")
    }

    /// A decade between two rigs' clocks (one that never had NTP) at 29.97, or a hostile frame count: no
    /// product overflows, and what Int64 cannot hold saturates.
    @Test func frameTimesOfYearsDoNotOverflow() {
        // 315360000 s × 30000/1001, to the nearest.
        let decade: Int64 = 10 * 365 * 86_400_000_000
        #expect(FrameRate.ntsc(30).frame(at: decade) == 9_451_348_651)
        #expect(FrameRate.ntsc(30).frame(at: -decade) == -9_451_348_651)
        #expect(FrameRate.ntsc(30).frame(showing: 33_366) == 0 && FrameRate.ntsc(30).frame(showing: 33_367) == 1)
        #expect(FrameRate.ntsc(30).frame(showing: -1) == -1)
        #expect(FrameRate.ntsc(60).microseconds(toFrame: .max) == .max)
        #expect(FrameRate(frames: 10_000_000, per: 1_333_333).microseconds(toFrame: 1 << 40) > 0)
    }

    /// takes.json and the status hold a rate as a number, whole rates as integers, and read it back exactly.
    @Test func aRateIsAJSONNumberReadBackExactly() throws {
        let rates: [FrameRate] = FrameRate.offered + [FrameRate(frames: 15, per: 2)]
        let json = String(decoding: try JSONEncoder().encode(rates), as: UTF8.self)
        #expect(json == "[23.976,24,25,29.97,30,48,50,59.94,60,7.5]")
        #expect(try JSONDecoder().decode([FrameRate].self, from: Data(json.utf8)) == rates)
        for bad in ["0", "0.5", "-1", "1001", "\"30\""] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(FrameRate.self, from: Data(bad.utf8)) }
        }
    }

    /// A picker on `recorder:fps` offers the rig's rate and its partner; a slider's value names a rate.
    @Test func anFpsControlOffersTheRigsFamilyOfRates() {
        #expect(RecorderSettingValues.choices(.fps, rate: 25) == ["25 fps", "50 fps"])
        #expect(RecorderSettingValues.choices(.fps, rate: .ntsc(60)) == ["29.97 fps", "59.94 fps"])
        #expect(RecorderSettingValues.choices(.fps, rate: .ntsc(24)) == ["23.976 fps"])
        #expect(RecorderSettingValues.command(.fps, picker: true, value: 1, rate: 25) == .fpsSet(50))
        #expect(RecorderSettingValues.command(.fps, picker: true, value: 7, rate: 25) == .fpsSet(50))
        #expect(RecorderSettingValues.command(.fps, picker: false, value: 29.97, rate: 30) == .fpsSet(.ntsc(30)))
        #expect(RecorderSettingValues.value(.fps, picker: true, in: RigBook(fps: 50)) == 1)
        #expect(RecorderSettingValues.value(.fps, picker: false, in: RigBook(fps: .ntsc(30))) == 29.97)
    }
}
