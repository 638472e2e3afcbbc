import SlateTestSupport
import Testing

@testable import SlateCore

/// The teleprompter: where its script is, as the rig's clock runs.
@Suite struct PrompterTests {
    static func at(_ seconds: Double) -> Instant { Instant(microseconds: Int64(seconds * 1_000_000)) }

    func prompter(
        speed: Double = 20, end: PrompterSpec.End = .pause, start: PrompterSpec.Start = .stay, length: Double = 1000,
        cues: [Double] = []
    ) -> Prompter {
        var spec = PrompterSpec(script: "script.md")
        spec.speed = speed
        spec.end = end
        spec.start = start
        return Prompter(spec: spec, length: length, cues: cues)
    }

    @Test func itScrollsOnlyWhileATakeRecords() {
        var prompter = prompter()
        #expect(prompter.position(at: Self.at(5)) == 0)
        prompter.setRecording(true, at: Self.at(10))
        #expect(prompter.position(at: Self.at(9)) == 0)
        #expect(prompter.position(at: Self.at(12.5)) == 50)
        prompter.setRecording(false, at: Self.at(13))
        #expect(prompter.position(at: Self.at(30)) == 60)
        prompter.setRecording(true, at: Self.at(40))
        #expect(prompter.position(at: Self.at(41)) == 80)
    }

    @Test func pauseFasterSlowerBackAndTop() {
        var prompter = prompter()
        prompter.setRecording(true, at: Self.at(0))
        #expect(prompter.perform(.pause, at: Self.at(2)) == "prompter paused")
        #expect(prompter.position(at: Self.at(10)) == 40 && !prompter.isRunning)
        #expect(prompter.perform(.pause, at: Self.at(10)) == "prompter goes on")
        #expect(prompter.perform(.faster, at: Self.at(11)) == "prompter 24 pt/s")
        #expect(prompter.position(at: Self.at(12)) == 84)
        #expect(prompter.perform(.back(.seconds(2)), at: Self.at(12)) == "prompter back to 36 pt")
        #expect(prompter.perform(.back(.seconds(60)), at: Self.at(12)) == "prompter back to 0 pt")
        #expect(prompter.perform(.slower, at: Self.at(12)) == "prompter 20 pt/s")
        #expect(prompter.perform(.speed(100), at: Self.at(12)) == "prompter 60 pt/s")
        #expect(prompter.perform(.speed(1), at: Self.at(12)) == "prompter 8 pt/s")
        #expect(prompter.position(at: Self.at(13)) == 8)
        #expect(prompter.perform(.top, at: Self.at(13)) == "prompter at the top")
        #expect(prompter.position(at: Self.at(13)) == 0)
    }

    @Test func atTheEndItStopsOrGoesRoundAgain() {
        var stops = prompter(speed: 50, length: 100)
        stops.setRecording(true, at: Self.at(0))
        #expect(stops.position(at: Self.at(10)) == 100)
        #expect(stops.perform(.back(.seconds(1)), at: Self.at(10)) == "prompter back to 50 pt")
        var loops = prompter(speed: 50, end: .loop, length: 100)
        let lap = 100 + loops.spec.loopGap
        loops.setRecording(true, at: Self.at(0))
        #expect(abs(loops.position(at: Self.at(lap / 50 + 1)) - 50) < 1e-3)
    }

    @Test func theScriptIsWrappedAsEveryScreenShowsIt() {
        let script = PrompterScript(
            text: "# Scene **one**\n\nGood evening, and welcome to the show.\r\nAnunbreakablewordthatgoesonandon\n\n\n",
            width: 12)
        #expect(
            script.lines == [
                .init(text: "Scene one", heading: true, cue: true), .init(text: ""), .init(text: "Good"),
                .init(text: "evening, and"),
                .init(text: "welcome to"), .init(text: "the show."), .init(text: "Anunbreakabl"), .init(text: "ewordthatgoe"),
                .init(text: "sonandon"),
            ])
        var spec = PrompterSpec(script: "s")
        spec.font = 20
        #expect(script.length(spec) == 9 * 28)
    }

    @Test func cuesBeginAtHeadingsAndRules() {
        let script = PrompterScript(
            text: "Before any cue.\n# One\ntext\n---\n\n## Two, titled\ntext\n* * *\ntext\n--\n___\n", width: 36)
        #expect(
            script.lines.map(\.text) == ["Before any cue.", "One", "text", "", "", "Two, titled", "text", "", "text", "--", ""])
        #expect(script.cues == [1, 3, 7, 10])
        #expect(script.lines[5].heading && !script.lines[5].cue)
        var spec = PrompterSpec(script: "s")
        spec.font = 20
        #expect(script.cuePoints(spec) == [28, 84, 196, 280])
        #expect(
            script.version
                == PrompterScript.version(of: "Before any cue.\n# One\ntext\n---\n\n## Two, titled\ntext\n* * *\ntext\n--\n___\n")
        )
        #expect(PrompterScript.version(of: "") == "cbf29ce484222325")
        #expect(PrompterScript.version(of: "a") == "af63dc4c8601ec8c")
        #expect(PrompterScript(text: "text\n", width: 36).version != PrompterScript(text: "text", width: 36).version)
    }

    @Test func cueJumpsForwardAndBack() {
        // Lines 33.6 pt apart (24 pt type): cues at 100, 300 and 500 pt.
        var prompter = prompter(cues: [100, 300, 500])
        #expect(abs(prompter.spec.lineHeight - 33.6) < 1e-9)
        #expect(prompter.perform(.previousCue, at: Self.at(0)) == "prompter at the top")
        #expect(prompter.perform(.nextCue, at: Self.at(0)) == "prompter at cue 1 of 3")
        #expect(prompter.cue(at: prompter.position(at: Self.at(0))) == 0)
        prompter.setRecording(true, at: Self.at(1))
        // 10 s on at 20 pt/s: 300, the start of cue 2; next goes to cue 3.
        #expect(prompter.cue(at: prompter.position(at: Self.at(11))) == 1)
        #expect(prompter.perform(.nextCue, at: Self.at(11)) == "prompter at cue 3 of 3")
        #expect(prompter.perform(.nextCue, at: Self.at(11)) == "prompter: no cue after this")
        // 1 s into cue 3 (20 pt, within its first line): back to cue 2; 3 s into it: its own start.
        #expect(prompter.perform(.previousCue, at: Self.at(12)) == "prompter at cue 2 of 3")
        #expect(prompter.position(at: Self.at(12)) == 300)
        #expect(prompter.perform(.previousCue, at: Self.at(15)) == "prompter at cue 2 of 3")
        #expect(prompter.position(at: Self.at(15)) == 300)
        var none = self.prompter()
        #expect(none.perform(.nextCue, at: Self.at(0)) == "prompter: the script has no cues")
    }

    @Test func cuesALineApartAndALoopsBlank() {
        // `# Act` then `## Scene`: two cues a line apart. From the second's start, back goes to the first.
        var close = prompter(cues: [100, 133.6])
        #expect(close.perform(.nextCue, at: Self.at(0)) == "prompter at cue 1 of 2")
        #expect(close.perform(.nextCue, at: Self.at(0)) == "prompter at cue 2 of 2")
        #expect(close.perform(.previousCue, at: Self.at(0)) == "prompter at cue 1 of 2")
        #expect(close.perform(.previousCue, at: Self.at(0)) == "prompter at the top")
        // Looping, the blank after the end is before the first cue, and the last cue is followed by the first.
        var loops = prompter(speed: 50, end: .loop, start: .cue, length: 200, cues: [0, 150])
        loops.setRecording(true, at: Self.at(0))
        #expect(loops.cue(at: loops.position(at: Self.at(4.2))) == nil)
        #expect(loops.perform(.nextCue, at: Self.at(4.2)) == "prompter at cue 1 of 2")
        #expect(loops.perform(.nextCue, at: Self.at(4.2)) == "prompter at cue 2 of 2")
        #expect(loops.perform(.nextCue, at: Self.at(4.2)) == "prompter at cue 1 of 2")
        loops.setRecording(false, at: Self.at(8.5))  // 215 pt on: in the blank after the end
        loops.setRecording(true, at: Self.at(9))
        #expect(loops.position(at: Self.at(9)) == 0)
    }

    @Test func aTakeSplitByASwitchDoesNotMoveThePrompter() {
        let facts = CameraFacts(name: "vivid", position: .back, fps: 30, zoomLimit: 4, zooms: true, hasTorch: false)
        var book = RigBook(fps: 30, camera: .streaming(facts), prompter: prompter(start: .cue, cues: [0, 100]))
        var effects: [RigEffect] = []
        _ = book.answer(.start, at: Self.at(0), into: &effects)
        book.enter(.takeStarted(take: 1, path: "/w/1.mp4", firstFrame: Self.at(1)), at: Self.at(1), into: &effects)
        // At 8 s it is 140 pt on, in cue 2: the frame rate's switch splits the take, and the script scrolls on.
        #expect(book.answer(.fpsToggle, at: Self.at(8), into: &effects) == .fps(60))
        book.enter(.takeStarted(take: 2, path: "/w/2.mp4", firstFrame: Self.at(8.5)), at: Self.at(8.5), into: &effects)
        #expect(book.isRecording && book.prompter?.position(at: Self.at(9)) == 160)
    }

    @Test func aTakeStartsAtItsCueTheTopOrWhereItStood() {
        func started(_ start: PrompterSpec.Start) -> Double {
            var prompter = prompter(start: start, cues: [100, 300])
            prompter.setRecording(true, at: Self.at(0))
            prompter.setRecording(false, at: Self.at(20))  // stopped at 400, in cue 2
            prompter.setRecording(true, at: Self.at(30))
            return prompter.position(at: Self.at(30))
        }
        #expect(started(.cue) == 300)
        #expect(started(.top) == 0)
        #expect(started(.stay) == 400)
        // Before its first cue, a take starts at the top.
        var early = prompter(start: .cue, cues: [100, 300])
        early.setRecording(true, at: Self.at(0))
        early.setRecording(false, at: Self.at(2))
        early.setRecording(true, at: Self.at(3))
        #expect(early.position(at: Self.at(3)) == 0)
    }

    @Test func aScriptReadAgainGoesOnFromWhereItStood() {
        var old = prompter(length: 1000)
        old.setRecording(true, at: Self.at(0))
        #expect(old.perform(.faster, at: Self.at(5)) == "prompter 24 pt/s")
        // 100 pt at 5 s, 124 at 6: the new script (shorter, the same profile) goes on from there, as fast.
        var next = prompter(length: 110, cues: [50]).continuing(from: old, at: Self.at(6))
        #expect(next.position(at: Self.at(6)) == 110 && next.recording && next.speed == 24 && next.cues == [50])
        #expect(next.perform(.top, at: Self.at(7)) == "prompter at the top")
        #expect(next.position(at: Self.at(8)) == 24)
        // A profile that sets another speed: its speed.
        let faster = prompter(speed: 40).continuing(from: old, at: Self.at(6))
        #expect(faster.speed == 40 && faster.position(at: Self.at(6)) == 124)
        // A prompter added while a take records scrolls from then on.
        var book = RigBook()
        var effects: [RigEffect] = []
        _ = book.answer(.start, at: Self.at(0), into: &effects)
        book.replacePrompter(with: prompter(), at: Self.at(2))
        #expect(book.prompter?.position(at: Self.at(3)) == 20)
        book.replacePrompter(with: nil, at: Self.at(4))
        #expect(book.prompter == nil)
    }

    @Test func aKnobsSliderOrPickerSetsTheSpeed() {
        let book = RigBook(prompter: prompter(speed: 27))
        #expect(RecorderSettingValues.value(.prompterSpeed, picker: false, in: book) == 27)
        #expect(RecorderSettingValues.value(.prompterSpeed, picker: true, in: book) == 4)
        #expect(RecorderSettingValues.choices(.prompterSpeed, rate: 30)[4] == "25 pt/s")
        #expect(RecorderSettingValues.command(.prompterSpeed, picker: true, value: 2, rate: 30) == .prompter(.speed(16)))
        #expect(RecorderSettingValues.command(.prompterSpeed, picker: false, value: 33, rate: 30) == .prompter(.speed(33)))
        #expect(ControlTarget("prompter:speed") == .recorder(.prompterSpeed))
        #expect(ControlTarget("recorder:prompter-speed") == nil)
        #expect(ControlTarget.recorder(.prompterSpeed).description == "prompter:speed")
    }

    @Test func theProfileSection() throws {
        let rig = TestDevice.footswitch.inputs(
            ["KEY_B": "take.toggle", "KEY_A": "prompter.pause", "KEY_C": "{prompter.back: 5}"])
        let loaded = try ProfileLoader.load(
            rig + "prompter: {script: talk.md, speed: 40, font: 24, mirror: true, end: loop, start: top, width: 30}\n",
            file: "rig.yaml"
        ).get()
        let spec = try #require(loaded.prompter)
        #expect(
            spec.script == "talk.md" && spec.speed == 40 && spec.font == 24 && spec.mirror && spec.end == .loop
                && spec.start == .top && spec.width == 30)
        #expect(try ProfileLoader.load(rig + "prompter: {script: talk.md}\n", file: "rig.yaml").get().prompter?.start == .cue)
        guard case .failure(let errors) = ProfileLoader.load(rig + "prompter: {speed: 70, end: stop}\n", file: "rig.yaml") else {
            Issue.record("a prompter section without a script loaded")
            return
        }
        #expect(errors.diagnostics.map(\.message).contains { $0.hasPrefix("prompter needs a script") })
        guard case .failure(let start) = ProfileLoader.load(rig + "prompter: {script: a.md, start: middle}\n", file: "rig.yaml")
        else {
            Issue.record("prompter.start: middle loaded")
            return
        }
        #expect(start.diagnostics.map(\.message).contains { $0.contains("prompter.start") })
        guard case .failure(let missing) = ProfileLoader.load(rig, file: "rig.yaml") else {
            Issue.record("prompter actions loaded without a prompter section")
            return
        }
        #expect(
            missing.diagnostics.map(\.message)
                == ["prompter.pause needs a prompter section", "prompter.back needs a prompter section"])
    }
}
