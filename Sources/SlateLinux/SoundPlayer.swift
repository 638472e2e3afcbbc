import Glibc
import Logging
import SlateCore

/// Plays a rig's sounds on an ALSA device from a thread of its own, so that
/// asking for a sound never blocks the caller.
///
/// `play` only queues the request. The player's thread resolves the name
/// (`SoundLibrary`), reads and decodes the WAV file (once: decoded files are
/// kept), and plays it. A sound that cannot be played (unknown name, missing or
/// bad file, no device, an ALSA error) is logged as an error the first time for
/// each sound and device, and at debug level after that; it is never fatal.
///
/// A daemon makes one player per profile and hands it the rig's sound reports:
///
///     let player = SoundPlayer(
///         library: SoundLibrary(spec: profile.sounds, builtInFolder: InstalledSounds.folder(),
///                               profileFolder: SoundLibrary.folder(of: profilePath)),
///         device: profile.sounds.device, logger: logger)
///     for case .sound(let sound) in rig.reports { player.play(sound.sound) }
///     ...
///     player.stop()   // at shutdown
public final class SoundPlayer: @unchecked Sendable {
    /// The ALSA device sounds play on.
    public let device: String
    private let state: PlayerState
    private var thread: pthread_t?
    private let threadLock = Monitor()

    /// - Parameters:
    ///   - library: resolves sound names to files.
    ///   - device: the ALSA device, as in the profile's `sounds.device`.
    ///   - logger: where failures go.
    ///   - queueCapacity: the most sounds that wait while one plays; more drop the oldest waiting.
    ///   - latency: ALSA's buffer, in microseconds.
    public init(
        library: SoundLibrary, device: String = "default", logger: Logger = Logger(label: "slate.sound"),
        queueCapacity: Int = 2, latency: UInt32 = 100_000
    ) {
        self.device = device
        state = PlayerState(
            library: library, device: device, logger: logger, queue: SoundQueue(capacity: queueCapacity), latency: latency)
        PCMPlayback.captureLibraryMessages()
        let state = self.state
        switch BackgroundThread.spawn({ state.run() }) {
        case .success(let handle):
            thread = handle
        case .failure(let error):
            state.markStopped()
            logger.error(
                "cannot start the sound thread: \(error.cause.reason); sounds will not play on ALSA device '\(device)'")
        }
    }

    deinit { stop() }

    /// Queues sound `name` (a built-in sound or one in the profile's `sounds.files`)
    /// and returns at once. With `cut`, the sound replaces the waiting ones and
    /// stops the one playing now. Does nothing once the player has stopped.
    public func play(_ name: String, cut: Bool = false) {
        state.enqueue(Request(sound: name, file: nil), cut: cut)
    }

    /// Queues the WAV file at `path`, like `play(_:cut:)`.
    public func play(file path: String, cut: Bool = false) {
        state.enqueue(Request(sound: path, file: path), cut: cut)
    }

    /// Blocks until nothing waits and nothing plays (for tools and tests; the
    /// daemon has no reason to call it).
    public func waitUntilIdle() { state.waitUntilIdle() }

    /// Drops the waiting sounds, stops the one playing, and joins the thread.
    /// Idempotent; `deinit` calls it too.
    public func stop() {
        state.requestStop()
        let joining: pthread_t? = threadLock.locked {
            defer { thread = nil }
            return thread
        }
        if let joining { pthread_join(joining, nil) }
    }
}

private struct Request: Sendable {
    /// The name played (for a file, its path).
    var sound: String
    /// A file asked for directly, not by name.
    var file: String?
}

/// The player's shared state. Fields marked "worker" belong to the player's thread alone.
private final class PlayerState: @unchecked Sendable {
    let library: SoundLibrary
    let device: String
    let logger: Logger
    let latency: UInt32
    let monitor = Monitor()

    // Guarded by `monitor`.
    var queue: SoundQueue<Request>
    var stopping = false
    var busy = false
    var interrupt = false

    // Worker.
    var decoded: [String: WaveFile] = [:]
    var reported: Set<String> = []

    init(library: SoundLibrary, device: String, logger: Logger, queue: SoundQueue<Request>, latency: UInt32) {
        self.library = library
        self.device = device
        self.logger = logger
        self.queue = queue
        self.latency = latency
    }

    func enqueue(_ request: Request, cut: Bool) {
        let dropped: [Request] = monitor.locked {
            guard !stopping else { return [] }
            let push = queue.push(request, cut: cut)
            if push.stopsCurrent && busy { interrupt = true }
            monitor.broadcast()
            return push.dropped
        }
        for request in dropped {
            logger.debug("sound '\(request.sound)' dropped: too many sounds waiting on ALSA device '\(device)'")
        }
    }

    func waitUntilIdle() {
        monitor.locked {
            while !(queue.isEmpty && !busy) { monitor.wait() }
        }
    }

    func requestStop() {
        monitor.locked {
            stopping = true
            interrupt = true
            _ = queue.removeAll()
            monitor.broadcast()
        }
    }

    /// When the thread could not start: nothing will ever play.
    func markStopped() {
        monitor.locked {
            stopping = true
            _ = queue.removeAll()
        }
    }

    /// The thread's loop: one request at a time until stopped.
    func run() {
        while true {
            let next: Request? = monitor.locked {
                while queue.isEmpty && !stopping { monitor.wait() }
                if stopping { return nil }
                busy = true
                interrupt = false
                return queue.pop()
            }
            guard let request = next else { break }
            perform(request)
            monitor.locked {
                busy = false
                monitor.broadcast()
            }
        }
        monitor.locked {
            busy = false
            monitor.broadcast()
        }
    }

    private func shouldStop() -> Bool { monitor.locked { interrupt } }

    private func perform(_ request: Request) {
        var file = request.file
        do throws(SoundFailure) {
            if file == nil {
                do { file = try library.path(of: request.sound) } catch { throw SoundFailure(error.message) }
            }
            let sound = try load(file!)
            do {
                try PCMPlayback.play(sound, device: device, latency: latency, shouldStop: shouldStop)
            } catch {
                throw SoundFailure(error.reason)
            }
        } catch {
            report(error, sound: request.sound, file: file)
        }
    }

    /// The decoded file at `path`; decoded once, then kept. Failures are not
    /// kept, so a file fixed while Slate runs plays the next time.
    private func load(_ path: String) throws(SoundFailure) -> WaveFile {
        if let cached = decoded[path] { return cached }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.bytes(atPath: path)
        } catch {
            throw SoundFailure(error.reason)
        }
        do {
            let sound = try WaveFile.parse(bytes: bytes, file: path)
            decoded[path] = sound
            return sound
        } catch {
            throw SoundFailure(error.message)
        }
    }

    private func report(_ failure: SoundFailure, sound: String, file: String?) {
        let what = file.map { $0 == sound ? "sound file \($0)" : "sound '\(sound)' (\($0))" } ?? "sound '\(sound)'"
        let message = "cannot play \(what) on ALSA device '\(device)': \(failure.reason)"
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
    init(_ reason: String) { self.reason = reason }
}

/// The installed folder of the built-in sounds.
public enum InstalledSounds {
    /// The first existing folder of `SoundLibrary.builtInFolderCandidates` for this
    /// executable (`/proc/self/exe`) and `SLATE_SOUNDS`, or nil.
    public static func folder() -> String? {
        let override = getenv("SLATE_SOUNDS").map { String(cString: $0) }
        return SoundLibrary.builtInFolderCandidates(executable: executablePath() ?? "", override: override)
            .first(where: isFolder)
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
