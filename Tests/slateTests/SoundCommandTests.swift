import Foundation
import Testing

/// `slate sound` on ALSA's `null` device (no sound card needed) and on devices that do not exist.
@Suite struct SoundCommandTests {
    @Test func playsABuiltInSoundAndExitsZero() throws {
        let result = try CLI.run(["sound", "begin-video-recording", "--device", "null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "played begin-video-recording (\(CLI.root.path)/sounds/begin-video-recording.wav): 0.250 s, 48000 Hz, mono, pcm_s16le, on ALSA device 'null'"
            ])
        #expect(result.stderr == "")
    }

    @Test func playsAFileAndTheProfilesSounds() throws {
        let file = try CLI.run(["sound", "sounds/shutter.wav", "--device", "null"])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.lines == ["played sounds/shutter.wav: 0.100 s, 48000 Hz, mono, pcm_s16le, on ALSA device 'null'"])

        // sounds.files is relative to the profile; sounds.device is the default device.
        let profile = try CLI.temporaryFile(
            "sound-rig.yaml",
            """
            inputs:
              p:
                match: {name: x}
                bind: {KEY_B: primary}
            capture: {primary: {click: sound click}}
            sounds:
              device: "null"
              files: {click: click.wav}
            """)
        let click = URL(fileURLWithPath: profile).deletingLastPathComponent().appendingPathComponent("click.wav").path
        try? FileManager.default.removeItem(atPath: click)
        try FileManager.default.copyItem(
            atPath: CLI.root.appendingPathComponent("sounds/end-video-recording.wav").path, toPath: click)
        let named = try CLI.run(["sound", "click", "--profile", profile])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.lines.first?.hasSuffix("click.wav): 0.250 s, 48000 Hz, mono, pcm_s16le, on ALSA device 'null'") == true)
        let elsewhere = try CLI.run(["sound", "click", "--profile", profile, "--device", "hw:99,0"])
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stderr.contains("on ALSA device 'hw:99,0': cannot open the device for playback"))
    }

    @Test func failuresExitOneWithTheReason() throws {
        let device = try CLI.run(["sound", "shutter", "--device", "hw:99,0"])
        #expect(device.status == 1)
        #expect(device.stdout == "")
        #expect(
            device.stderr
                == "error: cannot play sound 'shutter' (\(CLI.root.path)/sounds/shutter.wav) on ALSA device 'hw:99,0': cannot open the device for playback: Invalid argument (alsa-lib: Cannot get card index for 99)\n"
        )
        let unknown = try CLI.run(["sound", "kazoo", "--device", "null"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr
                == "error: cannot play sound 'kazoo' on ALSA device 'null': unknown sound 'kazoo' (built in: shutter, begin-video-recording or end-video-recording; others need an entry in sounds.files)\n"
        )
        let notWave = try CLI.run(["sound", "Package.swift", "--device", "null"])
        #expect(notWave.status == 1)
        #expect(
            notWave.stderr
                == "error: cannot play sound file Package.swift on ALSA device 'null': cannot read the sound file (WAV, AIFF, FLAC, Ogg, MP3 or CAF): Invalid data found when processing input\n"
        )
        let missing = try CLI.run(["sound", "/nonexistent/x.wav", "--device", "null"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "error: cannot play sound file /nonexistent/x.wav on ALSA device 'null': cannot open: No such file or directory (ENOENT)\n"
        )
    }
}
