import Foundation
import Testing

@testable import SlateCore

/// The `--json` lines: `Codable` types through `JSONEncoder`, keys sorted.
@Suite struct JSONLineTests {
    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aReportLineReadsBackAsItWasWritten() throws {
        let report = Report.take(
            TakeReport(
                time: Instant(microseconds: 1_733_000), event: .stopped, take: 1, path: "/takes/take-1.mp4",
                summary: TakeSummary(duration: .microseconds(1_600_400), frames: 48)))
        let line = ReportFormat(origin: Instant(microseconds: 0)).json(report, dispatched: Instant(microseconds: 1_733_250))
        #expect(
            line
                == #"{"dispatched":1.73325,"dropped":0,"duration":1.6,"event":"stopped","frames":48,"path":"/takes/take-1.mp4","t":1.733,"take":1,"type":"take"}"#
        )
        let decoded = try JSONDecoder().decode(ReportLine.self, from: Data(line.utf8))
        #expect(decoded == ReportLine(report, origin: Instant(microseconds: 0), dispatched: Instant(microseconds: 1_733_250)))
        #expect(
            decoded.fields
                == .take(
                    ReportLine.Take(event: "stopped", take: 1, path: "/takes/take-1.mp4", duration: 1.6, frames: 48, dropped: 0)))
    }

    @Test func aControlLineHasItsValueTextStateAndSourceAndAnOverlayLineItsEvent() throws {
        let format = ReportFormat(origin: Instant(microseconds: 0))
        let value = Report.control(
            ControlReport(
                time: Instant(microseconds: 1_500_000), control: "Zoom", value: 2, text: "2.0×", enabled: true,
                source: .knob))
        #expect(
            format.json(value)
                == #"{"control":"Zoom","enabled":true,"source":"knob","t":1.5,"text":"2.0×","type":"control","value":2}"#)
        let shown = Report.control(
            ControlReport(
                time: Instant(microseconds: 0), control: "Zoom", event: .overlayShown, value: 1, text: "1.0×",
                enabled: true))
        #expect(
            format.json(shown)
                == #"{"control":"Zoom","enabled":true,"event":"overlay-shown","t":0,"text":"1.0×","type":"control","value":1}"#)
        let decoded = try JSONDecoder().decode(ReportLine.self, from: Data(format.json(value).utf8))
        #expect(decoded == ReportLine(value, origin: Instant(microseconds: 0)))
    }

    @Test func anExportCountsItsTakesAndStringsAreEscaped() throws {
        let report = Report.take(
            TakeReport(time: Instant(microseconds: 0), event: .exported, take: 2, message: "say \"hi\"\n\u{1}"))
        let line = ReportFormat(origin: Instant(microseconds: 0)).json(report)
        #expect(line == #"{"event":"exported","message":"say \"hi\"\n\u0001","t":0,"takes":2,"type":"take"}"#)
        #expect(try object(line)["message"] as? String == "say \"hi\"\n\u{1}")
    }

    @Test func anExportUnderWayCountsItsTakesAndSaysHowMuchIsDone() throws {
        let progress = ExportProgress(takes: 2, frames: 600, total: 1800)
        let report = Report.take(
            TakeReport(
                time: Instant(microseconds: 2_500_000), event: .exporting, take: progress.takes, progress: progress))
        let line = ReportFormat(origin: Instant(microseconds: 0)).json(report)
        #expect(line == #"{"done":0.33,"event":"exporting","frames":600,"t":2.5,"takes":2,"type":"take"}"#)
        let decoded = try JSONDecoder().decode(ReportLine.self, from: Data(line.utf8))
        #expect(decoded == ReportLine(report, origin: Instant(microseconds: 0)))
        #expect(decoded.fields == .take(ReportLine.Take(event: "exporting", takes: 2, frames: 600, done: 0.33)))
    }

    @Test func cameraLinesWriteAMissingValueAsNullAndIntervalsInBothShapes() throws {
        let control = CameraControl(
            id: .init(0x0098_0900), name: "Brightness", kind: .init(v4l2: 1), minimum: 0, maximum: 255, step: 1,
            defaultValue: 128, value: nil)
        let modes = [
            CameraMode(pixelFormat: FourCC("YUYV")!, width: 640, height: 360, intervals: .discrete([Fraction(1, 30)])),
            CameraMode(
                pixelFormat: FourCC("MJPG")!, width: 1280, height: 720,
                intervals: .stepwise(min: Fraction(1, 60), max: Fraction(1, 1), step: Fraction(1, 60))),
        ]
        let camera = CameraLine(
            path: "/dev/video0", card: "vivid", driver: "vivid", bus: "platform:vivid-000", errors: [], modes: modes,
            controls: [control], selections: [])
        let line = JSONLine.encode(camera)
        let parsed = try object(line)
        #expect(parsed["errors"] == nil)
        let controls = try #require(parsed["controls"] as? [[String: Any]])
        #expect(controls.first?["value"] is NSNull && controls.first?["default"] as? Int == 128)
        let intervals = (parsed["modes"] as? [[String: Any]])?.map { $0["intervals"] }
        #expect(intervals?.first as? [String] == ["1/30"])
        #expect((intervals?.last as? [String: String]) == ["min": "1/60", "max": "1/1", "step": "1/60"])
        #expect((parsed["modes"] as? [[String: Any]])?.last?["maxFPS"] as? Double == 60)
        #expect(try JSONDecoder().decode(CameraLine.self, from: Data(line.utf8)) == camera)
    }

    @Test func aDeviceLineHasTheProfilesFieldsOnlyWithAProfile() throws {
        let identity = DeviceIdentity(name: "PCsensor FootSwitch", bus: 3, vendor: 0x3553, product: 0xb001)
        let alone = DeviceLine(
            path: "/dev/input/event5", identity: identity, group: "g", error: nil, udev: ["ID_BUS": "usb"], profile: nil)
        let withoutProfile = try object(JSONLine.encode(alone))
        #expect(withoutProfile["input"] == nil && withoutProfile["mismatches"] == nil && withoutProfile["clone"] == nil)
        #expect(withoutProfile["vendor"] as? String == "0x3553" && withoutProfile["readable"] as? Bool == true)
        var matched = alone
        matched.profile = DeviceLine.ProfileMatch(
            input: nil, mismatches: ["pedals": ["name is not 'x'"]], clone: false, warning: nil)
        let line = JSONLine.encode(matched)
        let withProfile = try object(line)
        #expect(withProfile["input"] is NSNull)
        #expect(withProfile["mismatches"] as? [String: [String]] == ["pedals": ["name is not 'x'"]])
        #expect(try JSONDecoder().decode(DeviceLine.self, from: Data(line.utf8)) == matched)
    }

    @Test func durationsAreSecondsToTheDecimalsAsked() {
        #expect(Duration.microseconds(1_600_999).inSeconds(decimals: 3) == 1.6)
        #expect(Duration.microseconds(19_085_399).inSeconds() == 19.085399)
        #expect(Duration.microseconds(-1_250_900).inSeconds(decimals: 3) == -1.25)
    }
}
