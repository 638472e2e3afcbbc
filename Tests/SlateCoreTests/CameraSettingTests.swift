import SlateCore
import Testing

@Suite struct CameraSettingTests {
    func profile(_ settings: String) -> Result<Profile, ProfileErrors> {
        ProfileLoader.load(
            "inputs: {p: {match: {name: x}, bind: {KEY_B: take.toggle}}}\ncamera:\n  settings: \(settings)", file: "rig.yaml")
    }

    @Test func settingsTakeNumbersBooleansAndMenuItemsByTheControlsKey() throws {
        let loaded = try profile("{White Balance Temperature: 4600, white_balance_automatic: false, power_line_frequency: 50 Hz}")
            .get()
        #expect(
            loaded.camera.settings == [
                CameraSetting(key: "white_balance_temperature", value: .number(4600)),
                CameraSetting(key: "white_balance_automatic", value: .number(0)),
                CameraSetting(key: "power_line_frequency", value: .item("50 Hz")),
            ])
        guard case .failure(let errors) = profile("{brightness: 1, Brightness: 2, contrast: [1]}") else {
            Issue.record("a setting made twice and a list were accepted")
            return
        }
        #expect(
            errors.description.split(separator: "\n").map(String.init) == [
                "rig.yaml:3:29: error: brightness is set twice",
                "rig.yaml:3:54: error: contrast takes a number, true or false, or a menu item's name",
            ])
    }

    @Test func automaticModesAreSetFirstAndWhatCannotBeSetSaysWhy() {
        let settings = [
            CameraSetting(key: "white_balance_temperature", value: .number(4600)),
            CameraSetting(key: "power_line_frequency", value: .item("50 hz")),
            CameraSetting(key: "white_balance_automatic", value: .number(0)),
            CameraSetting(key: "zoom_absolute", value: .number(3)),
            CameraSetting(key: "power_line_frequency", value: .item("70 Hz")),
        ]
        let (sets, problems) = CameraSetting.plan(settings, on: ModelledCamera.typicalWebcam)
        #expect(
            sets.map { "\($0.control.key)=\($0.value)" } == [
                "white_balance_automatic=0", "white_balance_temperature=4600", "power_line_frequency=1",
            ])
        #expect(
            problems == [
                SettingOutcome(key: "zoom_absolute", asked: "3", problem: "the camera has no control zoom_absolute"),
                SettingOutcome(
                    key: "power_line_frequency", asked: "70 Hz",
                    problem: "power_line_frequency has no item '70 Hz' (items: Disabled, 50 Hz, 60 Hz)"),
            ])
    }
}
