import SlateTestSupport
import Testing

@testable import SlateCore

/// The teleprompter: where its script is, as the rig's clock runs.
@Suite struct PrompterTests {
    static func at(_ seconds: Double) -> Instant { Instant(microseconds: Int64(seconds * 1_000_000)) }

    func prompter(speed: Double = 20, end: PrompterSpec.End = .pause, length: Double = 1000) -> Prompter {
        var spec = PrompterSpec(script: "script.md")
        spec.speed = speed
        spec.end = end
        return Prompter(spec: spec, length: length)
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
                .init(text: "Scene one", heading: true), .init(text: ""), .init(text: "Good"), .init(text: "evening, and"),
                .init(text: "welcome to"), .init(text: "the show."), .init(text: "Anunbreakabl"), .init(text: "ewordthatgoe"),
                .init(text: "sonandon"),
            ])
        var spec = PrompterSpec(script: "s")
        spec.font = 20
        #expect(script.length(spec) == 9 * 28)
    }

    @Test func aKnobsSliderOrPickerSetsTheSpeed() {
        let book = RigBook(prompter: prompter(speed: 27))
        #expect(RecorderSettingValues.value(.prompterSpeed, picker: false, in: book) == 27)
        #expect(RecorderSettingValues.value(.prompterSpeed, picker: true, in: book) == 4)
        #expect(RecorderSettingValues.choices(.prompterSpeed)[4] == "25 pt/s")
        #expect(RecorderSettingValues.command(.prompterSpeed, picker: true, value: 2) == .prompter(.speed(16)))
        #expect(RecorderSettingValues.command(.prompterSpeed, picker: false, value: 33) == .prompter(.speed(33)))
        #expect(ControlTarget("prompter:speed") == .recorder(.prompterSpeed))
        #expect(ControlTarget("recorder:prompter-speed") == nil)
        #expect(ControlTarget.recorder(.prompterSpeed).description == "prompter:speed")
    }

    @Test func theProfileSection() throws {
        let rig = TestDevice.footswitch.inputs(
            ["KEY_B": "take.toggle", "KEY_A": "prompter.pause", "KEY_C": "{prompter.back: 5}"])
        let loaded = try ProfileLoader.load(
            rig + "prompter: {script: talk.md, speed: 40, font: 24, mirror: true, end: loop, width: 30}\n", file: "rig.yaml"
        ).get()
        let spec = try #require(loaded.prompter)
        #expect(
            spec.script == "talk.md" && spec.speed == 40 && spec.font == 24 && spec.mirror && spec.end == .loop
                && spec.width == 30)
        guard case .failure(let errors) = ProfileLoader.load(rig + "prompter: {speed: 70, end: stop}\n", file: "rig.yaml") else {
            Issue.record("a prompter section without a script loaded")
            return
        }
        #expect(errors.diagnostics.map(\.message).contains { $0.hasPrefix("prompter needs a script") })
        guard case .failure(let missing) = ProfileLoader.load(rig, file: "rig.yaml") else {
            Issue.record("prompter actions loaded without a prompter section")
            return
        }
        #expect(
            missing.diagnostics.map(\.message)
                == ["prompter.pause needs a prompter section", "prompter.back needs a prompter section"])
    }
}
