import Foundation
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate-bench record [seconds]`: the real `slate record` of the test pattern at
/// 1080p30 as a child process, picture only and then with stereo sound (the test
/// tone, through the same capture worker, placement and AAC encoder a card's sound
/// takes), each with its own peak resident memory (VmHWM, polled), CPU time per
/// second of take, the frames in the take, the frames it dropped (reported, or
/// missing from the expected seconds x 30) and the encoder it picked, against the
/// goals; then with a 540p proxy, for what it adds; then ffmpeg's peak memory
/// encoding the same size live, for reference, and the ratio of Slate's to it.
func runRecordBench(_ arguments: [String]) {
    let seconds = arguments.first.flatMap { Int($0) } ?? 60
    let (size, fps) = ("1920x1080", 30)
    let slate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("slate")
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("slate-bench-record-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: work) }
    var met = true
    var cpu: [RecordRun: Double] = [:]
    var memory: [RecordRun: Double] = [:]
    for kind in RecordRun.allCases {
        let sound = kind == .sound
        print("recording the test pattern at \(size), \(fps) fps for \(seconds) s with slate record, \(kind.rawValue):")
        let audio = sound ? ["--audio", "testtone", "--audio-channels", "2"] : []
        let proxy = kind == .proxy ? ["--proxy", "540p"] : []
        guard
            let run = runMeasured(
                slate.path,
                [
                    "record", "--camera", "testpattern", "--size", size, "--fps", "\(fps)", "--seconds", "\(seconds)",
                    "--work", work + "/" + kind.folder, "--json",
                ] + audio + proxy)
        else { return print("  cannot run \(slate.path)") }
        guard run.status == 0,
            let take = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
            let frames = take["frames"] as? Int, let dropped = take["dropped"] as? Int
        else { return print("  slate record failed (status \(run.status)): \(run.output)") }
        let expected = seconds * fps
        let missing = max(0, expected - frames)
        let megabytes = Double(run.maxRSSKilobytes) / 1024
        cpu[kind] = run.cpuSeconds / Double(seconds)
        memory[kind] = megabytes
        print("  encoder \(take["encoder"] as? String ?? "?"), \(frames) frames of \(expected) expected")
        if sound, let summary = take["sound"] as? [String: Any] {
            print("  sound \(summary["duration"] ?? "?") s, \(summary["overruns"] ?? "?") overruns")
        }
        print(String(format: "  peak RSS %.1f MB (goal: below 150 MB)", megabytes))
        print(
            String(
                format: "  peak RSS of any process it ran (the encoder speed probes) %.1f MB",
                Double(run.treeMaxRSSKilobytes) / 1024))
        print(String(format: "  CPU time %.3f s per second of take", run.cpuSeconds / Double(seconds)))
        print("  dropped \(dropped) reported, \(missing) missing (goal: 0; one frame of start and stop rounding is allowed)")
        if kind == .proxy, let path = take["proxy"] as? String {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let original = (take["path"] as? String).flatMap {
                try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int
            }
            print(
                String(
                    format: "  proxy %@: %.1f MB, the take %.1f MB", (path as NSString).lastPathComponent,
                    Double(size) / 1e6, Double(original ?? 0) / 1e6))
        }
        met =
            met && megabytes < 150 && dropped == 0 && missing <= 1 && (!sound || take["sound"] != nil)
            && (kind != .proxy || take["proxy"] != nil)
    }
    for kind in [RecordRun.sound, .proxy] {
        guard let picture = cpu[.picture], let other = cpu[kind], let base = memory[.picture], let more = memory[kind] else {
            continue
        }
        print(
            String(
                format: "  %@ costs %.3f s of CPU per second of take (%+.1f%%) and %+.1f MB of peak RSS",
                kind == .sound ? "sound" : "a 540p proxy", other - picture, picture > 0 ? (other - picture) / picture * 100 : 0,
                more - base))
    }
    print(met ? "goals met" : "GOALS MISSED")

    // ffmpeg records as long as slate did: a peak reached later in a take counts for both.
    let reference = seconds
    if let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile),
        let run = runMeasured(
            ffmpeg,
            [
                "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(fps)", "-t", "\(reference)",
                "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "\(fps)", "-bf", "0",
                "-movflags", "frag_keyframe+empty_moov", "-y", work + "/ffmpeg.mp4",
            ]),
        run.status == 0
    {
        let megabytes = Double(run.maxRSSKilobytes) / 1024
        print(
            String(
                format: "  reference: ffmpeg (libx264 ultrafast, zerolatency) live for %d s, peak RSS %.1f MB", reference,
                megabytes))
        if let picture = memory[.picture], let sound = memory[.sound] {
            print(
                String(
                    format: "  slate record's peak RSS to ffmpeg's: %.2f picture only, %.2f with sound (goal: at most 1.00)",
                    picture / megabytes, sound / megabytes))
        }
    }
}

/// Runs `path` with `arguments` to its end: its exit status, standard output, its
/// own peak resident set (VmHWM, polled while it runs) and that of the whole tree
/// it ran (ru_maxrss from wait4), in kilobytes, and its own CPU time (user and
/// system, its threads but not the processes it ran, polled), in seconds.
func runMeasured(_ path: String, _ arguments: [String]) -> (
    status: Int32, output: String, maxRSSKilobytes: Int, treeMaxRSSKilobytes: Int, cpuSeconds: Double
)? {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    fflush(nil)
    var child: pid_t = 0
    let spawned = posix_spawn(&child, path, &actions, &attributes, argv, environ)
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard spawned == 0 else { return nil }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var peak = 0
    var cpu = 0.0
    while true {
        // The child's own high-water mark and CPU time, read while it runs: wait4's
        // figures would also count the processes it started (its encoder probes).
        peak = max(peak, highWaterMark(of: child))
        cpu = max(cpu, cpuTime(of: child))
        var ready = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 50) != 0 else { continue }
        let count = read(pipeEnds[0], &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        output += buffer[0..<count]
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, String(decoding: output, as: UTF8.self), peak, usage.ru_maxrss, cpu)
}

/// The user and system time of a running process's own threads, in seconds (0 once it is gone).
private func cpuTime(of pid: pid_t) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return 0 }
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// VmHWM of a running process, in kilobytes (0 once it is gone).
private func highWaterMark(of pid: pid_t) -> Int {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") { return Int(text.dropFirst(6).filter(\.isNumber)) ?? 0 }
    }
    return 0
}

/// The takes `slate-bench record` records.
enum RecordRun: String, CaseIterable {
    case picture = "picture only"
    case sound = "with stereo sound (testtone, AAC)"
    case proxy = "picture with a 540p proxy (libx264)"

    /// Its work folder's name.
    var folder: String {
        switch self {
        case .picture: "picture"
        case .sound: "sound"
        case .proxy: "proxy"
        }
    }
}
