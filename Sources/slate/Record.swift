import ArgumentParser
import Logging
import SlateCore
import SlateDaemon
import SlateMedia
import SlateSystem

/// `slate record`: one take now, from a camera or the test pattern.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record one take into the work folder, to try a camera and the encoder.",
        discussion: """
            The take is recorded as the daemon records takes: a fragmented MP4 with a \
            thumbnail, listed in the work folder's takes.json. Of several --codec choices, \
            the first whose encoder keeps up at this size (a short probe) is used. It \
            stops after --seconds, or on SIGINT or SIGTERM. On a terminal, standard error \
            shows the time recorded, the frames, the frames dropped and the sound's peak \
            level, four times a second.
            """)

    @Option(help: "A V4L2 device such as /dev/video0, or testpattern.")
    var camera = "testpattern"

    @OptionGroup var video: VideoOptions

    @Flag(help: "Store a camera's MJPEG or H.264 frames as they come, without encoding (as camera.passthrough).")
    var passthrough = false

    @Option(help: "Record sound too: an ALSA capture device such as default or hw:CARD=USB,DEV=0, or testtone.")
    var audio = "none"

    @Option(help: "The sound's channels (1 or 2).")
    var audioChannels = 2

    @Option(help: "Write a proxy beside the take, as camera.proxy: 360p, 480p, 540p or 720p (in Proxy/).")
    var proxy: String?

    @OptionGroup var folder: Takes.FolderOptions

    @Flag(help: "Print the take as one JSON object.")
    var json = false

    @OptionGroup var logging: LogOptions

    func run() throws {
        try Slate.claimSignals([Signal.interrupt, Signal.terminate])
        Slate.bootstrapLogging(logging.logLevel)
        var audio = AudioSpec()
        audio.device = AudioSpec.Device(self.audio)
        audio.format.channels = audioChannels
        let proxy = try self.proxy.map { text in
            guard let height = Int(text.dropLast()), text.hasSuffix("p"), ProxySpec.heights.contains(height) else {
                throw ValidationError("--proxy must be 360p, 480p, 540p or 720p, not '\(text)'")
            }
            return ProxySpec(height: height)
        }
        let settings = OneTake.Settings(
            camera: camera, width: video.dimensions.width, height: video.dimensions.height, fps: video.fps,
            codecs: video.codecs, passThrough: passthrough, audio: audio, seconds: video.seconds, proxy: proxy)
        let folder = try self.folder.resolve("record", create: true)
        let outcome: OneTake.Outcome
        let showsProgress = Terminal.drawsInPlace(.standardError)
        do {
            // The progress line is cleared when the take ends, however it ends.
            defer { if showsProgress { OutputStream.writeRaw("\r\u{1B}[K", fd: .standardError) } }
            outcome = try OneTake.record(
                settings, into: folder, probe: ProbeEncoder.inChildProcess,
                logger: Logger(label: "slate.record"),
                progress: showsProgress ? { OutputStream.writeRaw("\r\($0.text)\u{1B}[K", fd: .standardError) } : nil)
        } catch {
            OutputStream.writeError("slate record: \(error)")
            throw ExitCode.failure
        }
        for problem in outcome.problems { OutputStream.writeError("slate record: \(problem)") }
        guard let take = outcome.take else {
            OutputStream.writeError("slate record: no take was recorded")
            throw ExitCode.failure
        }
        if json {
            print(
                JSONLine.encode(
                    RecordLine(
                        path: folder.file(take.file), thumbnail: take.thumbnail.map(folder.file), encoder: outcome.encoder,
                        summary: take.summary, sound: outcome.sound, proxy: take.proxy.map(folder.file))))
        } else {
            print(
                "recorded \(folder.file(take.file)) with \(outcome.encoder): \(take.summary.text)"
                    + (outcome.sound.map { ", " + $0.text } ?? "") + (take.proxy.map { ", proxy " + folder.file($0) } ?? ""))
        }
    }
}
