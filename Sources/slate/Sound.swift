import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate sound NAME|FILE`: plays one sound, to test a rig's audio.
struct Sound: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play one sound and wait until it has played, to test a rig's audio.",
        discussion: """
            NAME is a built-in sound (shutter, begin-video-recording, end-video-recording) \
            or one named in the profile's sounds.files; an argument with a '/' or a '.' \
            is a sound file (WAV, AIFF, FLAC, Ogg, MP3 or CAF). The sound plays on --device, else the profile's \
            sounds.device, else ALSA's 'default'. Exits 0 when the sound played, 1 with \
            the reason when it could not.
            """)

    @Argument(help: "A sound name, or a sound file.")
    var sound: String

    @Option(help: "The ALSA device to play on, e.g. default, hw:0,0 or plughw:1,0.")
    var device: String?

    @Option(help: "A profile whose sounds.files and sounds.device to use.")
    var profile: String?

    func run() throws {
        var spec = SoundSpec()
        var profileFolder: String?
        if let profile {
            switch ProfileSource.load(profile) {
            case .success(let loaded):
                spec = loaded.sounds
                profileFolder = SoundLibrary.folder(of: profile)
            case .failure(let failure):
                OutputStream.writeDiagnostics(failure.diagnostics)
                throw ExitCode.failure
            }
        }
        let device = device ?? spec.device
        let isFile = sound.contains("/") || sound.contains(".")
        let what = isFile ? "sound file \(sound)" : "sound '\(sound)'"
        func fail(_ reason: String, file: String? = nil) -> ExitCode {
            let described = file.map { "\(what) (\($0))" } ?? what
            OutputStream.writeError("error: cannot play \(described) on ALSA device '\(device)': \(reason)")
            return ExitCode.failure
        }

        let path: String
        if isFile {
            path = sound
        } else {
            let library = SoundLibrary(spec: spec, builtInFolder: InstalledSounds.folder(), profileFolder: profileFolder)
            do { path = try library.path(of: sound) } catch { throw fail(error.message) }
        }
        let shownFile = isFile ? nil : path
        let clip: SoundClip
        do {
            clip = try SoundFile.read(path: path)
        } catch {
            throw fail(error.message, file: shownFile)
        }
        do {
            try PCMPlayback.play(clip, device: device)
        } catch {
            throw fail(error.reason, file: shownFile)
        }
        let layout = clip.channels == 1 ? "mono" : "stereo"
        let seconds = Instant(microseconds: clip.duration.microseconds).seconds(since: Instant(microseconds: 0), decimals: 3)
        let output = OutputStream()
        output.writeLine(
            "played \(isFile ? sound : "\(sound) (\(path))"): \(seconds) s, \(clip.sampleRate) Hz, \(layout), \(clip.codec), on ALSA device '\(device)'"
        )
        output.flush()
    }
}
