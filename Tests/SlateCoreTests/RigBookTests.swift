import SlateCore
import Testing

@Suite struct RigBookTests {
    let now = Instant(microseconds: 1_000_000)

    func camera(
        _ name: String = "/dev/video0 (vivid)", position: CameraPosition = .back, fps: FrameRate = 30, zoomLimit: Double = 6,
        zooms: Bool = true, torch: Bool = true
    ) -> CameraFacts {
        CameraFacts(name: name, position: position, fps: fps, zoomLimit: zoomLimit, zooms: zooms, hasTorch: torch)
    }

    /// Answers `command`, returning the outcome and the commands it hands on.
    func answer(_ book: inout RigBook, _ command: RecorderCommand) -> (RecorderOutcome, [String]) {
        var effects: [RigEffect] = []
        let outcome = book.answer(command, at: now, into: &effects)
        return (outcome, effects.map(describe))
    }

    /// Enters `fact`, returning the report lines and commands it calls for.
    func enter(_ book: inout RigBook, _ fact: RigFact) -> [String] {
        var effects: [RigEffect] = []
        book.enter(fact, at: now, into: &effects)
        return effects.map(describe)
    }

    func describe(_ effect: RigEffect) -> String {
        switch effect {
        case .take(let command, _): "take \(command)"
        case .camera(let command, _): "camera \(command)"
        case .report(.take(let report)): "\(report.event) \(report.take.map(String.init) ?? "-") \(report.message ?? "")"
        default: "\(effect)"
        }
    }

    @Test func switchingCameraOrRateWhileRecordingSplitsTheTake() {
        var book = RigBook(fps: 60)
        #expect(answer(&book, .start) == (.started(take: 1), ["take start"]))
        #expect(answer(&book, .cameraToggle).0 == .camera(.front))
        #expect(book.isRecording)
        #expect(answer(&book, .fpsToggle).0 == .fps(30))
        #expect(answer(&book, .stop) == (.stopped(take: 3), ["take stop"]))
        #expect(answer(&book, .cameraToggle).0 == .camera(.back))
        #expect(answer(&book, .export(nil)) == (.exporting(takes: 3), ["take export(SlateCore.ExportFilter.none)"]))
    }

    @Test func theProfilesCameraSectionIsTheStartingState() {
        var spec = CameraSpec()
        spec.fps = 30
        spec.position = .front
        spec.filter = .mono
        var book = RigBook(camera: spec, takes: 2)
        #expect(answer(&book, .filterNext).0 == .filter("sepia"))
        #expect(answer(&book, .fpsToggle).0 == .fps(60))
        #expect(answer(&book, .cameraToggle).0 == .camera(.back))
        #expect(answer(&book, .start).0 == .started(take: 3))
        #expect(
            answer(&book, .export(nil)) == (.exporting(takes: 3), ["take stop", "take export(SlateCore.ExportFilter.sepia)"]))
    }

    @Test func withoutACameraNothingStartsAndSwitchesWaitForTheNextOne() {
        var book = RigBook(fps: 30, camera: .absent)
        #expect(answer(&book, .start) == (.ignored("no camera"), []))
        #expect(answer(&book, .torchToggle) == (.ignored("no camera has no torch"), []))
        #expect(answer(&book, .fpsToggle) == (.fps(60), []))
        #expect(enter(&book, .cameraOpened(camera(fps: 60))) == ["camera zoom(1.0)"])
        #expect(answer(&book, .start) == (.started(take: 1), ["take start"]))
        #expect(
            answer(&book, .fpsToggle) == (.fps(30), ["camera switchTo(SlateCore.CameraPosition.back, fps: 30, splitting: true)"]))
    }

    /// The toggle switches between a rate and its double or half: PAL rigs between 25 and 50, NTSC ones between
    /// 29.97 and 59.94; 23.976 has neither among the rates a profile takes.
    @Test func theRateToggleKeepsToTheRigsFamilyOfRates() {
        var pal = RigBook(fps: 25, camera: .streaming(camera(fps: 25)))
        #expect(answer(&pal, .fpsToggle).0 == .fps(50))
        #expect(answer(&pal, .fpsToggle).0 == .fps(25))
        var ntsc = RigBook(fps: .ntsc(60), camera: .streaming(camera(fps: .ntsc(60))))
        #expect(
            answer(&ntsc, .fpsToggle)
                == (.fps(.ntsc(30)), ["camera switchTo(SlateCore.CameraPosition.back, fps: 29.97, splitting: false)"]))
        var film = RigBook(fps: .ntsc(24), camera: .streaming(camera(fps: .ntsc(24))))
        #expect(answer(&film, .fpsToggle) == (.ignored("23.976 fps has no double or half to switch to"), []))
        #expect(answer(&film, .fpsSet(24)).0 == .fps(24))
    }

    @Test func aTakeThatEndedEarlyOrNeverStartedIsEnteredOnce() {
        var book = RigBook(camera: .streaming(camera()))
        _ = answer(&book, .start)
        #expect(enter(&book, .takeStartFailed("encoder refused")) == ["failed - encoder refused"])
        #expect(!book.isRecording && book.takes == 0)
        _ = answer(&book, .start)
        let summary = StoppedTake(take: 1, path: "/w/take-1.mp4", summary: TakeSummary(duration: .seconds(2), frames: 60))
        #expect(enter(&book, .takeStopped(summary, early: "disk full")) == ["stopped 1 ", "failed - disk full"])
        #expect(!book.isRecording && book.takes == 1)
        #expect(answer(&book, .stop).0 == .ignored("not recording"))
        // A take stopped on request is not counted again when its close is reported.
        _ = answer(&book, .start)
        _ = answer(&book, .stop)
        var second = summary
        second.take = 2
        _ = enter(&book, .takeStopped(second, early: nil))
        #expect(book.takes == 2)
    }

    @Test func aTakeClosedByALostCameraIsCountedAndTheNextOneNumberedAfterIt() {
        var book = RigBook(camera: .streaming(camera()))
        let summary = StoppedTake(take: 1, path: "/w/take-1.mp4", summary: TakeSummary(duration: .seconds(2), frames: 60))
        _ = answer(&book, .start)
        _ = enter(&book, .takeStarted(take: 1, path: summary.path, firstFrame: now))
        _ = enter(&book, .takeStopped(summary, early: nil))
        _ = enter(&book, .cameraLost("unplugged"))
        _ = enter(&book, .cameraOpened(camera()))
        #expect(answer(&book, .start).0 == .started(take: 2))
        // Lost before its first frame, a take is not counted.
        _ = enter(&book, .cameraLost("unplugged"))
        _ = enter(&book, .cameraOpened(camera()))
        #expect(answer(&book, .start).0 == .started(take: 2))
    }

    @Test func anExportAndAStartInOneListLeaveTheNewTakeRecording() {
        var book = RigBook(camera: .streaming(camera()))
        _ = answer(&book, .start)
        _ = enter(&book, .takeStarted(take: 1, path: "/w/take-1.mp4", firstFrame: now))
        #expect(answer(&book, .export(nil)) == (.exporting(takes: 1), ["take stop", "take export(SlateCore.ExportFilter.none)"]))
        #expect(answer(&book, .start).0 == .started(take: 1))
        let first = StoppedTake(take: 1, path: "/w/take-1.mp4", summary: TakeSummary(duration: .seconds(2), frames: 60))
        _ = enter(&book, .takeStopped(first, early: nil))
        #expect(book.isRecording && book.takes == 0)
        #expect(answer(&book, .stop).0 == .stopped(take: 1))
    }

    @Test func aFailedExportGivesItsTakesBack() {
        var book = RigBook(takes: 3, camera: .streaming(camera()))
        #expect(answer(&book, .export(nil)).0 == .exporting(takes: 3))
        #expect(book.takes == 0)
        #expect(enter(&book, .exportFailed("no space", returned: 3)) == ["failed - export: no space"])
        #expect(answer(&book, .deleteLast) == (.deleted(take: 3), ["take deleteLast"]))
    }

    @Test func aTakeIsDeletedByItsNumberWhileNoneRecords() {
        var book = RigBook(takes: 3, camera: .streaming(camera()))
        #expect(answer(&book, .delete(.number(2))) == (.deleted(take: 2), ["take delete(2)"]))
        #expect(book.takes == 2)
        #expect(answer(&book, .delete(.number(3))) == (.ignored("no take 3 (takes 1 to 2)"), []))
        #expect(answer(&book, .delete(.number(0))) == (.ignored("no take 0 (takes 1 to 2)"), []))
        #expect(answer(&book, .start).0 == .started(take: 3))
        #expect(answer(&book, .delete(.number(1))) == (.ignored("recording"), []))
        #expect(answer(&book, .stop).0 == .stopped(take: 3))
        #expect(answer(&book, .delete(.number(1))) == (.deleted(take: 1), ["take delete(1)"]))
        #expect(answer(&book, .delete(.number(1))) == (.deleted(take: 1), ["take delete(1)"]))
        #expect(answer(&book, .delete(.number(1))) == (.deleted(take: 1), ["take delete(1)"]))
        #expect(answer(&book, .delete(.number(1))) == (.ignored("no takes"), []))
    }

    @Test func aTakeNamedByItsFileIsDeletedOrItsCountGivenBack() {
        var book = RigBook(takes: 2, camera: .streaming(camera()))
        let file = TakeChoice.file("take-20261121-103841-0002.mp4")
        #expect(answer(&book, .delete(file)).0 == .deleting(file: "take-20261121-103841-0002.mp4"))
        #expect(book.takes == 1)
        // The pipeline found no such take (a second client deleted it first): the count comes back.
        #expect(
            enter(&book, .takeDeleteFailed("no take-20261121-103841-0002.mp4 to delete"))
                == ["failed - no take-20261121-103841-0002.mp4 to delete"])
        #expect(book.takes == 2)
        #expect(answer(&book, .start).0 == .started(take: 3))
        #expect(answer(&book, .delete(file)) == (.ignored("recording"), []))
    }

    @Test func anExportMayChooseItsFilterWithoutChangingTheRigs() {
        var book = RigBook(takes: 2, camera: .streaming(camera()))
        #expect(answer(&book, .export(.mono)) == (.exporting(takes: 2), ["take export(SlateCore.ExportFilter.mono)"]))
        #expect(book.filter == .none)
    }

    @Test func anExportUnderWayIsReportedWithHowMuchIsDoneAndTakesGoOn() throws {
        var book = RigBook(takes: 2, camera: .streaming(camera()))
        #expect(answer(&book, .export(nil)).0 == .exporting(takes: 2))
        var effects: [RigEffect] = []
        book.enter(.exportProgress(ExportProgress(takes: 2, frames: 450, total: 1800)), at: now, into: &effects)
        #expect(effects.count == 1)
        guard case .report(.take(let report)) = try #require(effects.first) else {
            Issue.record("not a take report: \(effects)")
            return
        }
        #expect(report.event == .exporting && report.time == now)
        #expect(report.take == 2 && report.progress?.frames == 450 && report.progress?.done == 0.25 && report.path == nil)
        #expect(
            ReportFormat(origin: Instant(microseconds: 0)).text(.take(report))
                == "    1.000  take     exporting 2 takes  450 frames, 25% done")
        #expect(book.takes == 0 && !book.isRecording)
        #expect(answer(&book, .start) == (.started(take: 1), ["take start"]))
    }

    @Test func aSwitchThatFailsKeepsTheCameraThatStreamsAndTheTakeWhole() {
        var book = RigBook(fps: 30, camera: .streaming(camera()))
        _ = answer(&book, .start)
        #expect(answer(&book, .cameraToggle).0 == .camera(.front))
        #expect(book.position == .front && book.takes == 1)
        let reported = enter(&book, .cameraSwitchFailed("no front camera is present", keeping: camera(), unsplit: true))
        #expect(reported == ["failed - no front camera is present", "camera zoom(1.0)"])
        #expect(book.position == .back && book.takes == 0 && book.isRecording)
        #expect(answer(&book, .stop).0 == .stopped(take: 1))
    }

    @Test func theOtherCameraStartsAt1xAndACameraKeptByAFailedSwitchKeepsItsZoom() {
        var book = RigBook(fps: 30, camera: .streaming(camera()))
        #expect(answer(&book, .zoomSet(2.5)).1 == ["camera zoom(2.5)"])
        // No zoom command before the switch: the camera that streams keeps 2.5× until the other opens.
        #expect(answer(&book, .cameraToggle).1 == ["camera switchTo(SlateCore.CameraPosition.front, fps: 30, splitting: false)"])
        #expect(book.zoom == 1)
        #expect(enter(&book, .cameraOpened(camera("/dev/video1", position: .front))) == ["camera zoom(1.0)"])
        #expect(answer(&book, .zoomSet(3)).0 == .zoom(3))
        _ = answer(&book, .cameraToggle)
        let reported = enter(
            &book, .cameraSwitchFailed("no back camera is present", keeping: camera(position: .front), unsplit: false))
        #expect(reported == ["failed - no back camera is present", "camera zoom(3.0)"])
        #expect(book.zoom == 3 && book.position == .front)
    }

    @Test func whatACameraCannotDoIsRefusedAndItsLimitsHold() {
        var book = RigBook(camera: .streaming(camera("/dev/video2 (USB)", zooms: false, torch: false)))
        #expect(
            answer(&book, .zoomSet(2))
                == (.ignored("/dev/video2 (USB) is recorded as it comes (pass-through) and has no zoom control"), []))
        #expect(answer(&book, .torchToggle) == (.ignored("/dev/video2 (USB) has no torch"), []))
        _ = enter(&book, .cameraOpened(camera(zoomLimit: 4)))
        #expect(answer(&book, .zoomSet(5)) == (.zoom(4), ["camera zoom(4.0)"]))
        #expect(answer(&book, .torchToggle) == (.torch(true), ["camera torch(true)"]))
        // A camera opened later gets the zoom and torch the books hold, within what it can do.
        #expect(enter(&book, .cameraOpened(camera(zoomLimit: 2))) == ["camera zoom(2.0)", "camera torch(true)"])
        #expect(enter(&book, .cameraOpened(camera(torch: false))) == ["camera zoom(2.0)"])
        #expect(!book.torch)
        #expect(enter(&book, .cameraLost("unplugged")) == ["failed - camera lost: unplugged"])
        #expect(answer(&book, .start).0 == .ignored("no camera"))
    }
}
