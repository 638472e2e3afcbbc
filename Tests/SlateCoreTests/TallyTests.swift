import Testing

@testable import SlateCore

/// The tally's pieces beside its machine: busylight reports byte for byte (as
/// their makers document them), colours and patterns, and the profile's section.
@Suite struct TallyTests {
    @Test func blink1SetsItsColourNowWithFeatureReportOne() {
        let report = BusylightModel.blink1.report(.lit(.red))
        #expect(report.kind == .feature)
        #expect(report.bytes == [1, 0x6E, 255, 0, 0, 0, 0, 0, 0])
        #expect(BusylightModel.blink1.report(.dark).bytes == [1, 0x6E, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func luxaforSetsEveryLEDWithCommandOne() {
        let report = BusylightModel.luxafor.report(.lit(.green))
        #expect(report.kind == .output)
        // Report number 0 (none), then the 8 bytes the flag takes: command 1, all LEDs (0xFF), RGB.
        #expect(report.bytes == [0, 1, 0xFF, 0, 255, 0, 0, 0, 0])
    }

    @Test func kuandoJumpsToAStepShowingTheColourWithAChecksummedFooter() {
        let red = BusylightModel.kuando.report(.lit(.red)).bytes
        #expect(red.count == 65 && red[0] == 0)
        let command = Array(red.dropFirst())
        // Step 0: jump to step 0, repeat 0, red 100 % (Kuando's channels run 0–100), no blinking.
        #expect(Array(command[0..<8]) == [0x10, 0, 100, 0, 0, 0, 0, 0])
        #expect(command[8..<59].allSatisfy { $0 == 0 })
        // Footer: sensitivity, timeout, trigger 0; three 0xFF pad bytes; the sum of bytes 0–61, big-endian.
        #expect(Array(command[56..<64]) == [0, 0, 0, 0xFF, 0xFF, 0xFF, 0x03, 0x71])
        let dark = Array(BusylightModel.kuando.report(.dark).bytes.dropFirst())
        #expect(Array(dark[62..<64]) == [0x03, 0x0D])
        let amber = Array(BusylightModel.kuando.report(.lit(.amber)).bytes.dropFirst())
        #expect(Array(amber[2..<5]) == [100, 62, 0])
    }

    @Test func busylightsAreKnownByTheirUSBIds() {
        #expect(BusylightModel.model(vendor: 0x27B8, product: 0x01ED) == .blink1)
        #expect(BusylightModel.model(vendor: 0x04D8, product: 0xF372) == .luxafor)
        #expect(BusylightModel.model(vendor: 0x27BB, product: 0x3BCD) == .kuando)
        #expect(BusylightModel.model(vendor: 0x04D8, product: 0xF848) == .kuando)
        #expect(BusylightModel.model(vendor: 0x046D, product: 0xC52B) == nil)
    }

    @Test func coloursAndPatternsAreReadAsTheProfileWritesThem() {
        #expect(TallyColor("#ff8000") == TallyColor(red: 255, green: 128, blue: 0))
        #expect(TallyColor("amber") == .amber)
        #expect(TallyColor("0000ff") == .blue)
        #expect(TallyColor("#ff80") == nil && TallyColor("orange") == nil && TallyColor("#gg0000") == nil)
        #expect(TallyPattern("on", color: .red) == .on(.red))
        #expect(TallyPattern("blink #0000ff", color: .red) == .blink(.blue))
        #expect(TallyPattern("off", color: .red) == .off)
        #expect(TallyPattern("off red", color: .red) == nil)
        #expect(TallyPattern("on red now", color: .red) == nil)
        #expect(TallyPattern("glow", color: .red) == nil)
        #expect(TallyColor(red: 255, green: 128, blue: 0).description == "#ff8000")
    }

    static let base = """
        inputs:
          pedals:
            match: {name: "PCsensor*"}
            bind: {KEY_A: primary}
        capture: {primary: {click: take.toggle}}

        """

    func load(_ tally: String) -> Result<Profile, ProfileErrors> {
        ProfileLoader.load(Self.base + tally, file: "rig.yaml")
    }

    func errors(_ tally: String) -> [String] {
        guard case .failure(let errors) = load(tally) else { return [] }
        return errors.diagnostics.map(\.message)
    }

    @Test func aTallySectionNamesEachLightAndItsPatterns() throws {
        let profile = try load(
            """
            tally:
              error-hold: 10s
              outputs:
                - led: LED_SCROLLL
                  input: pedals
                  error: "off"
                - gpio: gpiochip0
                  line: 17
                  active-low: true
                  exporting: blink
                - busylight: kuando
                  standby: "off"
                  exporting: blink 8000ff
                  error: "blink #ff0000"
                - busylight: any
                  device: /dev/hidraw3
            """
        ).get()
        let tally = try #require(profile.tally)
        #expect(tally.errorHold == .seconds(10))
        #expect(
            tally.outputs.map(\.target) == [
                .led(input: "pedals", code: 2), .gpio(chip: "gpiochip0", line: 17, activeLow: true),
                .busylight(model: .kuando, device: nil), .busylight(model: nil, device: "/dev/hidraw3"),
            ])
        #expect(tally.outputs[0].pattern(in: .error) == .off)
        #expect(tally.outputs[0].pattern(in: .recording) == .on(.red))
        #expect(tally.outputs[1].pattern(in: .exporting) == .blink(.red))
        #expect(tally.outputs[2].pattern(in: .standby) == .off)
        #expect(tally.outputs[2].pattern(in: .exporting) == .blink(TallyColor(red: 0x80, green: 0, blue: 0xFF)))
        #expect(tally.outputs[2].pattern(in: .error) == .blink(.red))
        #expect(tally.outputs[3].pattern(in: .standby) == .on(.green))
        #expect(tally.outputs[3].pattern(in: .error) == .blink(.amber))
    }

    @Test func aTallyThatCannotBeShownIsRefusedWithItsReason() {
        #expect(
            errors("tally: {outputs: [{led: KEY_A, input: pedals}]}") == [
                "tally.outputs[0].led must be an LED code such as LED_SCROLLL or LED_CAPSL, not 'KEY_A'"
            ])
        #expect(
            errors("tally: {outputs: [{led: LED_CAPSL, input: knob}]}") == [
                "tally.outputs[0].input 'knob' is not one of the profile's inputs"
            ])
        #expect(
            errors("tally: {outputs: [{led: LED_CAPSL}]}") == [
                "tally.outputs[0] needs an input: the profile's input whose devices have the LED"
            ])
        #expect(
            errors("tally: {outputs: [{led: LED_CAPSL, input: pedals, recording: on red}]}") == [
                "tally.outputs[0].recording: LED_CAPSL of pedals shows no colours; write on, off or blink"
            ])
        #expect(
            errors("tally: {outputs: [{gpio: /dev/sda, line: 1}]}") == [
                "tally.outputs[0].gpio must be a GPIO chip such as gpiochip0 or /dev/gpiochip0"
            ])
        #expect(
            errors("tally: {outputs: [{gpio: gpiochip0}]}") == [
                "tally.outputs[0] needs a line: the chip's line number the light is on"
            ])
        #expect(errors("tally: {outputs: [{gpio: gpiochip0, line: 512}]}").count == 1)
        #expect(
            errors("tally: {outputs: [{busylight: embrava}]}") == [
                "tally.outputs[0].busylight must be any, blink1, luxafor or kuando, not 'embrava'"
            ])
        #expect(
            errors("tally: {outputs: [{busylight: any, device: /dev/sda}]}") == [
                "tally.outputs[0].device must be a hidraw node such as /dev/hidraw0"
            ])
        #expect(
            errors("tally: {outputs: [{busylight: any, recording: glow}]}") == [
                "tally.outputs[0].recording must be off, on or blink, with a colour for a busylight (on red, blink ff8000), not 'glow'"
            ])
        #expect(errors("tally: {outputs: [{busylight: any, colour: red}]}").first?.hasPrefix("unknown key 'colour'") == true)
        #expect(errors("tally: {outputs: [{lamp: 1}]}") == ["tally.outputs[0] needs one of led, gpio or busylight"])
        #expect(errors("tally: {error-hold: 0.5s}") == ["tally.error-hold must be from 1s to 600s"])
        #expect(
            errors("tally: {outputs: [{busylight: any}, {busylight: kuando}]}") == [
                "tally.outputs: two busylights could be one light; give each a device (/dev/hidrawN) or another model"
            ])
        #expect(errors("tally: {outputs: [{busylight: luxafor}, {busylight: luxafor}]}").count == 1)
        #expect(
            errors("tally: {outputs: [{busylight: luxafor}, {busylight: kuando}, {busylight: any, device: /dev/hidraw2}]}") == [])
        #expect(
            errors("tally: {outputs: [{busylight: any, device: /dev/hidraw2}, {busylight: kuando, device: /dev/hidraw2}]}")
                == ["tally.outputs names /dev/hidraw2 twice"])
        #expect(
            errors("tally: {outputs: [{gpio: gpiochip0, line: 4}, {gpio: /dev/gpiochip0, line: 4}]}")
                == ["tally.outputs names line 4 of gpiochip0 twice"])
        #expect(errors("tally: {outputs: [{gpio: gpiochip½, line: 4}]}").count == 1)
        let many = Array(repeating: "{busylight: any, device: /dev/hidraw1}", count: 17).joined(separator: ", ")
        #expect(errors("tally: {outputs: [\(many)]}") == ["tally.outputs lists 17 lights; at most 16"])
    }

    @Test func aReloadedTallyGoesOnFromTheStateItStoodIn() {
        let at = { (ms: Int64) in Instant(microseconds: ms * 1000) }
        var old = TallyMachine(
            spec: TallySpec(errorHold: .seconds(2), outputs: [TallyOutput(target: .led(input: "pedals", code: 2))]), at: at(0))
        _ = old.start()
        _ = old.failed(at: at(1000))
        _ = old.tick(at: at(1500))
        let lamp = TallyOutput(target: .gpio(chip: "gpiochip0", line: 4, activeLow: false))
        var new = TallyMachine(spec: TallySpec(errorHold: .seconds(2), outputs: [lamp]), continuing: old)
        #expect(new.state == .error && new.light(of: 0) == nil)
        // Shown at once, in the blink's phase since the failure (dark from 1.5 s), and the hold still ends at 3 s.
        #expect(new.tick(at: at(1700)) == [TallyMachine.Show(output: 0, light: .dark)])
        #expect(new.tick(at: at(2000)) == [TallyMachine.Show(output: 0, light: .lit(.amber))])
        #expect(new.tick(at: at(2500)) == [TallyMachine.Show(output: 0, light: .dark)])
        // The hold ends: standby, where a GPIO lamp is dark already.
        #expect(new.tick(at: at(3000)).isEmpty && new.state == .standby)
    }
}
