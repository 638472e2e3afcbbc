import Logging
import SlateCore
import SlateSystem

/// Reads a sound file to play (`SoundFile.read`, in SlateMedia).
public typealias SoundDecoder = @Sendable (_ path: String) throws(SoundFileError) -> SoundClip

/// Plays a rig's sounds on an ALSA device from a thread of its own, so that
/// asking for a sound never blocks the caller.
///
/// `play` only queues the request. The player's thread resolves the name
/// (`SoundLibrary`), reads and decodes the file with the `decode` it was given
/// (`SoundFile.read`, libav; once: decoded files are kept), and plays it. A sound that cannot be played (unknown name, missing or
/// bad file, no device, an ALSA error) is logged as an error the first time for
/// each sound and device, and at debug level after that; it is never fatal.
///
/// A daemon makes one player per profile and hands it the rig's sound reports:
///
///     let player = SoundPlayer(
///         library: SoundLibrary(spec: profile.sounds, builtInFolder: InstalledSounds.folder(),
///                               profileFolder: SoundLibrary.folder(of: profilePath)),
///         device: profile.sounds.device, decode: SoundFile.read(path:), logger: logger)
///     for case .sound(let sound) in rig.reports { player.play(sound.sound) }
///     ...
///     player.stop()   // at shutdown
public final class SoundPlayer: Sendable {
    /// The ALSA device sounds play on.
    public let device: String
    private let inbox: Mailbox<SoundInbox>?
    /// Rung each time the player's thread has nothing left to play.
    /// Signalled by the sound thread whenever it has nothing left to play.
    private let idle: Wakeup?
    private let thread: WorkerThread?
    private let log: Logger

    /// - Parameters:
    ///   - library: resolves sound names to files.
    ///   - device: the ALSA device, as in the profile's `sounds.device`.
    ///   - decode: reads a sound file (`SoundFile.read`), on the player's thread.
    ///   - logger: where failures go.
    ///   - queueCapacity: the most sounds that wait while one plays; more drop the oldest waiting.
    ///   - latency: ALSA's buffer, in microseconds.
    ///   - onFailure: called on the player's thread for each sound that cannot
    ///     play, with its name, its file and why (every time, where the log says it once).
    ///   - onPlaying: called on the player's thread as each sound starts, with
    ///     when it starts and when it will have been heard (its length and the latency).
    public init(
        library: SoundLibrary, device: String = "default", decode: @escaping SoundDecoder,
        logger: Logger = Logger(label: "slate.sound"),
        queueCapacity: Int = 2, latency: UInt32 = 100_000,
        onFailure: (@Sendable (_ sound: String, _ file: String?, _ reason: String) -> Void)? = nil,
        onPlaying: (@Sendable (Instant, Instant) -> Void)? = nil
    ) {
        self.device = device
        log = logger
        PCMPlayback.captureLibraryMessages()
        do {
            let inbox = try Mailbox(SoundInbox(queue: SoundQueue(capacity: queueCapacity)))
            let idle = try Wakeup()
            let speaker = Speaker(
                library: library, device: device, decode: decode, logger: logger, latency: latency, onFailure: onFailure,
                onPlaying: onPlaying)
            thread = try WorkerThread(name: "slate-sound") { speaker.run(inbox: inbox, idle: idle) }
            (self.inbox, self.idle) = (inbox, idle)
        } catch {
            logger.error("cannot start the sound thread: \(error); sounds will not play on ALSA device '\(device)'")
            (inbox, idle, thread) = (nil, nil, nil)
        }
    }

    deinit { stop() }

    /// Queues sound `name` (a built-in sound or one in the profile's `sounds.files`)
    /// and returns at once. With `cut`, the sound replaces the waiting ones and
    /// stops the one playing now. Does nothing once the player has stopped.
    public func play(_ name: String, cut: Bool = false) {
        enqueue(Request(sound: name, file: nil), cut: cut)
    }

    /// Queues the sound file at `path`, like `play(_:cut:)`.
    public func play(file path: String, cut: Bool = false) {
        enqueue(Request(sound: path, file: path), cut: cut)
    }

    private func enqueue(_ request: Request, cut: Bool) {
        let dropped: [Request] =
            inbox?.post { inbox in
                guard !inbox.stopping else { return [] }
                let push = inbox.queue.push(request, cut: cut)
                if push.stopsCurrent && inbox.busy { inbox.interrupt = true }
                return push.dropped
            } ?? []
        for request in dropped {
            log.debug("sound '\(request.sound)' dropped: too many sounds waiting on ALSA device '\(device)'")
        }
    }

    /// Blocks until nothing waits and nothing plays (for tools and tests; the
    /// daemon has no reason to call it).
    public func waitUntilIdle() {
        guard let inbox, let idle else { return }
        while !inbox.read({ ($0.queue.isEmpty && !$0.busy) || $0.stopping }) {
            idle.wait()
            idle.clear()
        }
    }

    /// Drops the waiting sounds, stops the one playing, and joins the thread.
    /// Idempotent; `deinit` calls it too.
    public func stop() {
        inbox?.post { inbox in
            inbox.stopping = true
            inbox.interrupt = true
            _ = inbox.queue.removeAll()
        }
        thread?.join()
    }
}

private struct Request: Sendable {
    /// The name played (for a file, its path).
    var sound: String
    /// A file asked for directly, not by name.
    var file: String?
}

/// What the player's thread is sent.
private struct SoundInbox: Sendable {
    var queue: SoundQueue<Request>
    var stopping = false
    /// Whether a sound is playing.
    var busy = false
    /// The sound playing is to stop.
    var interrupt = false
}

/// The player's thread: it plays one request at a time and keeps the decoded
/// files, at most `keptSamples` of them (the oldest go first).
private final class Speaker {
    static let keptSamples = 2 * SoundClip.maximumSamples

    let library: SoundLibrary
    let device: String
    let decode: SoundDecoder
    let logger: Logger
    let latency: UInt32
    let onFailure: (@Sendable (String, String?, String) -> Void)?
    let onPlaying: (@Sendable (Instant, Instant) -> Void)?
    var decoded: [String: SoundClip] = [:]
    /// The paths decoded, oldest first.
    var decodedOrder: [String] = []
    var reported: Set<String> = []

    init(
        library: SoundLibrary, device: String, decode: @escaping SoundDecoder, logger: Logger, latency: UInt32,
        onFailure: (@Sendable (String, String?, String) -> Void)?, onPlaying: (@Sendable (Instant, Instant) -> Void)?
    ) {
        self.library = library
        self.device = device
        self.decode = decode
        self.logger = logger
        self.latency = latency
        self.onFailure = onFailure
        self.onPlaying = onPlaying
    }

    /// Plays what `inbox` receives until the player stops; rings `idle` whenever nothing is left.
    func run(inbox: Mailbox<SoundInbox>, idle: Wakeup) {
        enum Next { case play(Request), wait, stop }
        while true {
            let next: Next = inbox.collect { inbox in
                guard !inbox.stopping else {
                    inbox.busy = false
                    return .stop
                }
                inbox.interrupt = false
                let request = inbox.queue.pop()
                inbox.busy = request != nil
                return request.map(Next.play) ?? .wait
            }
            switch next {
            case .play(let request): perform(request) { inbox.read { $0.interrupt } }
            case .wait:
                idle.signal()
                inbox.wait()
            case .stop:
                idle.signal()
                return
            }
        }
    }

    private func perform(_ request: Request, shouldStop: () -> Bool) {
        var file = request.file
        do throws(SoundFailure) {
            if file == nil {
                do { file = try library.path(of: request.sound) } catch { throw SoundFailure(error.message) }
            }
            let sound = try load(file!)
            if let onPlaying, sound.sampleRate > 0, sound.channels > 0 {
                let now = MonotonicClock.now()
                let frames = Int64(sound.samples.count / sound.channels)
                onPlaying(now, now + .microseconds(frames * 1_000_000 / Int64(sound.sampleRate) + Int64(latency)))
            }
            do {
                try PCMPlayback.play(sound, device: device, latency: latency, shouldStop: shouldStop)
            } catch {
                throw SoundFailure(error.reason, playing: true)
            }
        } catch {
            report(error, sound: request.sound, file: file)
        }
    }

    /// The decoded file at `path`; decoded once, then kept. Failures are not
    /// kept, so a file fixed while Slate runs plays the next time.
    private func load(_ path: String) throws(SoundFailure) -> SoundClip {
        if let cached = decoded[path] { return cached }
        do {
            let sound = try decode(path)
            decoded[path] = sound
            decodedOrder.append(path)
            while decoded.values.reduce(0, { $0 + $1.samples.count }) > Self.keptSamples, decodedOrder.count > 1 {
                decoded[decodedOrder.removeFirst()] = nil
            }
            return sound
        } catch {
            throw SoundFailure(error.message)
        }
    }

    private func report(_ failure: SoundFailure, sound: String, file: String?) {
        let what = file.map { $0 == sound ? "sound file \($0)" : "sound '\(sound)' (\($0))" } ?? "sound '\(sound)'"
        let message = "cannot play \(what) on ALSA device '\(device)': \(failure.reason)"
        onFailure?(sound, file, failure.playing ? "on ALSA device '\(device)': \(failure.reason)" : failure.reason)
        if reported.insert(sound + "\u{0}" + device).inserted {
            logger.error("\(message); further failures of this sound on this device are logged at debug level")
        } else {
            logger.debug("\(message)")
        }
    }
}

/// Why a sound did not play, in words.
struct SoundFailure: Error {
    var reason: String
    /// It failed on the sound device (else in finding or decoding the file).
    var playing: Bool
    init(_ reason: String, playing: Bool = false) {
        self.reason = reason
        self.playing = playing
    }
}

/// The installed folder of the built-in sounds.
public enum InstalledSounds {
    /// The first existing folder of `SoundLibrary.builtInFolderCandidates` for this
    /// executable (`/proc/self/exe`) and `SLATE_SOUNDS`, or nil.
    public static func folder() -> String? {
        SoundLibrary.builtInFolderCandidates(
            executable: Syscall.executablePath ?? "", override: Syscall.environmentValue("SLATE_SOUNDS")
        ).first(where: Syscall.isFolder)
    }
}
