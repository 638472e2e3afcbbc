import SlateCore
import Testing

@Suite struct PresetFileTests {
    @Test func slotsReadBackAsTheyWereWritten() throws {
        let slots = [
            2: [PresetValue(key: "brightness", value: 140), PresetValue(key: "power_line_frequency", value: 1)],
            1: [PresetValue(key: "white_balance_temperature", value: -4600)],
        ]
        let text = PresetFile.render(slots, camera: "usb-046d_HD_Pro_Webcam_C920-video-index0")
        #expect(text.hasPrefix("# Slate's presets for the camera usb-046d_HD_Pro_Webcam_C920-video-index0"))
        #expect(text.contains("1:\n  white_balance_temperature: -4600\n2:\n  brightness: 140\n"))
        #expect(try PresetFile.parse(text, file: "c920.yaml") == slots)
    }

    @Test func aBadFileNamesItsLine() throws {
        #expect(throws: PresetFileError.self) { try PresetFile.parse("1:\n  brightness: bright\n", file: "c.yaml") }
        do {
            _ = try PresetFile.parse("1:\n  brightness: 1\n100:\n  contrast: 2\n", file: "c.yaml")
            Issue.record("slot 100 was read")
        } catch {
            #expect(error.description == "c.yaml:3: expected a slot from 1 to 99 with a mapping of controls to values")
        }
        #expect(try PresetFile.parse("", file: "c.yaml").isEmpty)
    }

    @Test func aPresetKeepsWhatCanBeSetAndHasAValue() {
        let kept = PresetValue.of(ModelledCamera.typicalWebcam).map(\.key)
        #expect(kept.contains("brightness") && kept.contains("power_line_frequency") && kept.contains("auto_exposure"))
        #expect(!kept.contains("white_balance_temperature"), "inactive while automatic white balance is on")
    }
}
