import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateSystem
import SystemPackage

/// `slate audio`: the capture devices present; one device's level, live.
struct Audio: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the ALSA capture devices, or show one's level live.",
        discussion: """
            Without --meter, each capture device of each card: its hw: name, card, \
            description, channels and the standard rates (8000 to 192000 Hz) it accepts; \
            a device another program holds is listed as busy. --meter DEVICE captures \
            16-bit samples at --rate and --channels (a hw: device must offer them; \
            plughw: and default convert) and shows each channel's peak and RMS in dBFS \
            over the last 100 ms, ten times a second: redrawn in place on a terminal, \
            else one line each time, or with --json one JSON line each time (per channel \
            peak_db, rms_db and clipped samples; the clipped samples and overruns since \
            the start). It runs until SIGINT or SIGTERM, or for --seconds, then prints \
            the whole capture's peak, clipped samples and overruns. --blocks prints, \
            instead of the levels, one JSON line per block read: its first frame's time \
            and the time it was returned (CLOCK_MONOTONIC, microseconds), its position \
            (frames since the start, overruns' gaps included), frames, the frames \
            of silence put in for an overrun, and the frames already captured after \
            it (how far behind the reader was), to check the capture's clock. Exits 1 \
            when the device cannot be opened (a device that is not there lists those \
            present) or goes away.
            """)

    @Option(
        help: ArgumentHelp(
            "Show this capture device's level, e.g. hw:CARD=Loopback,DEV=1, plughw:1,0, default, or testtone (the tone takes record without a sound card).",
            valueName: "device"))
    var meter: String?

    @Option(help: "With --meter: frames per second.")
    var rate = 48000

    @Option(help: "With --meter: channels.")
    var channels = 2

    @Option(help: "With --meter: stop after this many seconds of sound.")
    var seconds: Double?

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(
        help:
            "With --meter: one JSON line per block read (time, position, frames, silence filled in, frames waiting) instead of levels."
    )
    var blocks = false

    /// How often the level is shown.
    static let interval = Duration.milliseconds(100)
    /// The width of a terminal bar, in cells.
    static let barWidth = 40

    func validate() throws {
        if meter == nil {
            let given = [
                (rate != 48000, "--rate"), (channels != 2, "--channels"), (seconds != nil, "--seconds"), (blocks, "--blocks"),
            ]
            if let option = given.first(where: \.0) { throw ValidationError("\(option.1) goes with --meter DEVICE") }
        }
        guard (1...768_000).contains(rate) else {
            throw ValidationError("--rate must be 1 to 768000 frames per second, not \(rate)")
        }
        guard (1...64).contains(channels) else { throw ValidationError("--channels must be 1 to 64, not \(channels)") }
        if let seconds, !(seconds > 0 && seconds <= 86400) {
            throw ValidationError("--seconds must be more than 0 and at most 86400, not \(seconds)")
        }
    }

    func run() throws {
        if let meter {
            try runMeter(meter)
        } else {
            list()
        }
    }

    static func fail(_ message: String) -> ExitCode {
        OutputStream.writeError("slate audio: \(message)")
        return ExitCode.failure
    }

    // MARK: Listing

    func list() {
        let devices = SoundCaptureDevices.list()
        let output = OutputStream()
        if json {
            devices.map(JSONLine.encode).forEach(output.writeLine)
        } else if devices.isEmpty {
            output.writeLine("no capture devices are present")
        } else {
            Self.table(devices).forEach(output.writeLine)
        }
        output.flush()
    }

    /// One header line, then one aligned line per device.
    static func table(_ devices: [SoundDeviceLine]) -> [String] {
        let header = ["device", "card", "description", "channels", "rates"]
        let rows = devices.map { device in
            [
                device.device, "\(device.card) \(device.cardID)", device.error.map { "\(device.name): \($0)" } ?? device.name,
                device.channelsText, device.ratesText,
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            let padded = row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: column == row.count - 1 ? 0 : widths[column] - cell.count + 2)
            }
            return padded.joined()
        }
    }

    // MARK: The meter

    func runMeter(_ device: String) throws {
        let format = AudioFormat(rate: rate, channels: channels)
        // Blocked before reading, so SIGINT and SIGTERM wait in the signalfd for
        // the next block instead of ending the process.
        let signals: SystemPackage.FileDescriptor
        let ending = [Signal.interrupt, Signal.terminate]
        switch Syscall.blockSignals(ending).flatMap({ Syscall.signalDescriptor(ending) }) {
        case .success(let fd): signals = fd
        case .failure(let errno): throw Self.fail("cannot handle SIGINT and SIGTERM: \(errno)")
        }
        defer { try? signals.close() }
        let source = try Self.open(device, format: format)
        // A capture device's own figures; the test tone has no period, buffer or overruns.
        let capture = source as? PCMCapture
        let output = OutputStream()
        var display = Display(
            mode: blocks ? .blocks : json ? .json : Terminal.isTerminal(.standardOutput) ? .terminal : .lines,
            device: device)
        if !json && !blocks {
            let until = seconds.map { "for \(Instant.formatSeconds(Int64($0 * 1_000_000), decimals: 3)) s" }
            let buffer = capture.map { "periods of \($0.periodFrames) frames, a buffer of \($0.bufferFrames)" }
            output.writeLine(
                "\(device): \(format), \(buffer ?? "blocks of 10 ms"); " + (until ?? "until SIGINT or SIGTERM"))
            output.flush()
        }
        var meter = LevelMeter(format: format, window: Self.interval)
        // Reports and --seconds go by the sound captured (positions, overruns' gaps
        // included), which is the device's clock.
        let interval = Int64(format.frames(in: Self.interval))
        var nextReport = interval
        let last = seconds.map { Int64(($0 * Double(rate)).rounded()) }
        var failure: (any Error)?
        while true {
            let block: AudioBlock
            do {
                block = try source.read()
            } catch {
                failure = error
                break
            }
            meter.add(block)
            let captured = block.position + Int64(block.frames)
            if blocks {
                let line = AudioBlockLine(
                    block, readAt: MonotonicClock.now(), waiting: capture?.waiting ?? 0, overruns: capture?.overruns ?? 0)
                output.writeLine(JSONLine.encode(line))
                output.flush()
            } else if captured >= nextReport {
                display.show(meter, captured: captured, end: block.end, overruns: capture?.overruns ?? 0, to: output)
                // After a gap, the next report is an interval after this one, not a burst of them.
                nextReport = (captured / interval + 1) * interval
            }
            if let last, captured >= last { break }
            if case .success(.some) = Syscall.readSignal(signals) { break }
        }
        display.finish(meter, device: device, overruns: capture?.overruns ?? 0, to: output)
        if let failure {
            let gone = (failure as? ALSAError)?.isDeviceGone ?? false
            throw Self.fail(gone ? "\(failure); the capture ended" : "\(failure)")
        }
    }

    /// The device to meter: an ALSA capture device, or the test tone.
    static func open(_ device: String, format: AudioFormat) throws -> any SoundSource {
        switch AudioSpec.Device(device) {
        case .none:
            throw fail("none is no capture device: name one that slate audio lists, or testtone")
        case .testTone:
            guard let tone = try? SoundDevice(device: .testTone, format: format).open() else {
                throw fail("cannot make the test tone")
            }
            return tone
        case .alsa:
            do {
                return try PCMCapture(device: device, format: format)
            } catch {
                let notThere = [Errno.noSuchFileOrDirectory, .noSuchDevice, .noSuchAddressOrDevice].map { -$0.rawValue }
                let missing = notThere.contains(error.code)
                throw fail(missing ? SoundCaptureDevices.missingDeviceMessage(device, reason: error.reason) : "\(error)")
            }
        }
    }

    /// How the levels are shown.
    struct Display {
        enum Mode { case terminal, lines, json, blocks }
        var mode: Mode
        var device: String
        /// Lines drawn last time on the terminal, to move back over.
        var drawn = 0

        /// The level of the last 100 ms, `captured` frames into the capture, at `end`.
        mutating func show(_ meter: LevelMeter, captured: Int64, end: Instant, overruns: Int, to output: OutputStream) {
            let recent = meter.recent
            let time = meter.format.duration(ofFrames: Int(captured)).microseconds
            let shown = Instant.formatSeconds(time, decimals: 1)
            let totals = "\(meter.total.clipped) clipped, \(overruns) overrun\(overruns == 1 ? "" : "s")"
            switch mode {
            case .json:
                output.writeLine(
                    JSONLine.encode(
                        AudioLevelLine(
                            device: device, seconds: Double(time / 1000) / 1000, end: end, recent: recent,
                            clipped: meter.total.clipped,
                            overruns: overruns)))
            case .lines:
                let levels = recent.channels.enumerated().map { index, level in
                    "\(AudioLevel.label(channel: index, of: recent.channels.count)) "
                        + "\(AudioLevel.text(decibels: level.peakDB)) dB peak \(AudioLevel.text(decibels: level.rmsDB)) dB rms"
                }
                output.writeLine("\(shown) s  " + levels.joined(separator: "  ") + "  \(totals)")
            case .terminal:
                let up = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
                var lines = recent.channels.enumerated().map { index, level in
                    AudioLevel.bar(
                        label: AudioLevel.label(channel: index, of: recent.channels.count), level: level, width: Audio.barWidth)
                }
                lines.append("\(shown) s  \(totals)")
                OutputStream.writeRaw(up + lines.map { "\r\($0)\u{1B}[K\n" }.joined(), fd: .standardOutput)
                drawn = lines.count
            case .blocks:
                break
            }
            output.flush()
        }

        /// The whole capture: `hw:0,1,0: 3.000 s, peak L -6.0 dB R -6.0 dB, 0 clipped, 0 overruns`.
        func finish(_ meter: LevelMeter, device: String, overruns: Int, to output: OutputStream) {
            let summary = AudioSummaryLine(device: device, meter: meter, overruns: overruns)
            if mode == .json || mode == .blocks {
                output.writeLine(JSONLine.encode(summary))
            } else {
                let peaks = meter.total.channels.enumerated().map { index, level in
                    "\(AudioLevel.label(channel: index, of: meter.total.channels.count)) \(AudioLevel.text(decibels: level.peakDB)) dB"
                }
                let filled = meter.filled > 0 ? " (\(meter.filled) frames of silence put in)" : ""
                output.writeLine(
                    "\(device): \(Instant.formatSeconds(Int64(summary.seconds * 1_000_000), decimals: 3)) s, peak "
                        + peaks.joined(separator: " ")
                        + ", \(summary.clipped) clipped, \(overruns) overrun\(overruns == 1 ? "" : "s")\(filled)")
            }
            output.flush()
        }
    }
}
