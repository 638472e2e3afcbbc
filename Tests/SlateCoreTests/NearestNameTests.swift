import Testing

@testable import SlateCore

/// A misspelt name, and the one it most likely meant.
@Suite struct NearestNameTests {
    let actions = ["take.toggle", "take.start", "take.stop", "takes.export", "zoom.in", "zoom.out"]

    @Test func aSlipIsTheNearestName() {
        #expect(NearestName.suggestion(for: "take.toggel", among: actions) == "take.toggle")
        #expect(NearestName.suggestion(for: "Take.Toggle", among: actions) == "take.toggle")
        #expect(NearestName.suggestion(for: "take.strat", among: actions) == "take.start")
        #expect(NearestName.suggestion(for: "takes.exprt", among: actions) == "takes.export")
        #expect(NearestName.hint(for: "zoom.inn", among: actions) == " (did you mean zoom.in?)")
    }

    @Test func nothingFarOrExactIsSuggested() {
        #expect(NearestName.suggestion(for: "record", among: actions) == nil)
        #expect(NearestName.suggestion(for: "zo", among: ["zoom.in"]) == nil)
        #expect(NearestName.suggestion(for: "take.stop", among: actions) == nil)
        #expect(NearestName.hint(for: "xyz", among: actions) == "")
    }

    @Test func aProfileWithAMisspeltActionSaysWhichItMeant() {
        let loaded = ProfileLoader.load(
            """
            inputs: {pedal: {match: {name: pedal}, bind: {KEY_B: take.toggel}}}
            """, file: "rig.yaml")
        guard case .failure(let failure) = loaded else {
            Issue.record("a misspelt action was taken")
            return
        }
        #expect(failure.diagnostics.contains { $0.message.contains("did you mean take.toggle?") }, "\(failure)")
    }
}
