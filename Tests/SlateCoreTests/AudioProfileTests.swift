import Testing

@testable import SlateCore

/// The profile's `audio` section.
@Suite struct AudioProfileTests {
    let rig = """
        inputs:
          pedal:
            match: {name: "PCsensor FootSwitch"}
            bind: {KEY_B: primary}
        capture:
          primary: {click: [take.toggle]}

        """

    func load(_ audio: String) -> Result<Profile, ProfileErrors> { ProfileLoader.load(rig + audio, file: "rig.yaml") }

    func errors(_ audio: String) -> [String] {
        guard case .failure(let errors) = load(audio) else { return [] }
        return errors.diagnostics.map(\.description)
    }

    @Test func withoutTheSectionTakesArePictureOnly() throws {
        #expect(try load("").get().audio == nil)
    }

    @Test func everySettingIsRead() throws {
        let audio = try #require(
            try load(
                """
                audio:
                  device: hw:CARD=USB,DEV=0
                  channels: 1
                  rate: 44100
                  codec: aac
                  bitrate: 96k
                  gain-db: 6.5
                  optional: true
                """
            ).get().audio)
        #expect(audio.device == .alsa("hw:CARD=USB,DEV=0"))
        #expect(audio.format == AudioFormat(rate: 44100, channels: 1))
        #expect(audio.bitRate == 96000 && audio.gainDB == 6.5 && audio.optional)
        #expect(audio.source == .alsa("hw:CARD=USB,DEV=0"))
    }

    @Test func noneTestToneAndDisabledAreUnderstood() throws {
        #expect(try load("audio: {device: none}").get().audio?.source == nil)
        #expect(try load("audio: {device: testtone}").get().audio?.source == .testTone)
        #expect(try load("audio: {device: default, enabled: false}").get().audio?.source == nil)
        let defaults = try #require(try load("audio: {}").get().audio)
        #expect(defaults.source == .alsa("default") && defaults.format == AudioFormat(rate: 48000, channels: 2))
        #expect(defaults.codec == .aac && !defaults.optional)
    }

    @Test func badSettingsAreErrorsWithTheirPositions() {
        let found = errors(
            """
            audio:
              channels: 6
              rate: 12345
              bitrate: 2m
              gain-db: 90
              volume: 3
            """)
        #expect(found.count == 5, "\(found)")
        #expect(found.contains { $0.hasPrefix("rig.yaml:8:") && $0.contains("channels must be 1 or 2, not '6'") })
        #expect(found.contains { $0.hasPrefix("rig.yaml:9:") && $0.contains("rate must be") && $0.contains("48000") })
        #expect(found.contains { $0.hasPrefix("rig.yaml:10:") && $0.contains("bitrate must be from 16k to 512k") })
        #expect(found.contains { $0.hasPrefix("rig.yaml:11:") && $0.contains("gain-db must be a number from -40 to 40") })
        #expect(found.contains { $0.hasPrefix("rig.yaml:12:") && $0.contains("volume") })
    }

    @Test func opusRecordsAt48kHzOnly() {
        let found = errors("audio: {codec: opus, rate: 44100}")
        #expect(found.count == 1 && found[0].contains("Opus records at 48000 Hz only"), "\(found)")
    }
}

@Suite struct ALSACardTests {
    @Test func namesOnOneCardAreTold() {
        #expect(ALSACard.card(of: "hw:CARD=USB,DEV=0") == "USB")
        #expect(ALSACard.card(of: "plughw:1,0") == "1")
        #expect(ALSACard.card(of: "plughw:USB") == "USB")
        #expect(ALSACard.card(of: "default") == "default")
        #expect(ALSACard.card(of: "pulse") == nil)
        #expect(ALSACard.sameCard("hw:CARD=USB,DEV=0", "plughw:CARD=USB,DEV=1"))
        #expect(ALSACard.sameCard("default", "default"))
        #expect(!ALSACard.sameCard("hw:0,0", "hw:1,0"))
        #expect(!ALSACard.sameCard("default", "hw:CARD=USB,DEV=0"))
        #expect(ALSACard.sameCard("pulse", "pulse") && !ALSACard.sameCard("pulse", "pipewire"))
    }
}
