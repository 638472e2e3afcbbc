import Foundation
import Glibc
import SlateCore
import SlateLinux

/// `slate-bench record [seconds]`: the real `slate record` of the test pattern at
/// 1080p30 as a child process, with its peak resident memory (wait4's ru_maxrss),
/// the frames in the take, the frames it dropped (reported, or missing from the
/// expected seconds x 30) and the encoder it picked, against the goals; then
/// ffmpeg's peak memory encoding the same size live, for reference.
func runRecordBench(_ arguments: [String]) {
    let seconds = arguments.first.flatMap { Int($0) } ?? 60
    let (size, fps) = ("1920x1080", 30)
    let slate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("slate")
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("slate-bench-record-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: work) }
    print("recording the test pattern at \(size), \(fps) fps for \(seconds) s with slate record:")
    guard
        let run = runMeasured(
            slate.path,
            ["record", "--camera", "testpattern", "--size", size, "--fps", "\(fps)", "--seconds", "\(seconds)",
             "--work", work, "--json"])
    else { return print("  cannot run \(slate.path)") }
    guard run.status == 0,
        let take = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
        let frames = take["frames"] as? Int, let dropped = take["dropped"] as? Int
    else { return print("  slate record failed (status \(run.status)): \(run.output)") }
    let expected = seconds * fps
    let missing = max(0, expected - frames)
    let megabytes = Double(run.maxRSSKilobytes) / 1024
    print("  encoder \(take["encoder"] as? String ?? "?"), \(frames) frames of \(expected) expected")
    print(String(format: "  peak RSS %.1f MB (goal: below 150 MB)", megabytes))
    print("  dropped \(dropped) reported, \(missing) missing (goal: 0; one frame of start and stop rounding is allowed)")
    print(megabytes < 150 && dropped == 0 && missing <= 1 ? "goals met" : "GOALS MISSED")

    let reference = seconds < 10 ? seconds : 10
    if let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile),
        let run = runMeasured(
            ffmpeg,
            ["-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(fps)", "-t", "\(reference)",
             "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "\(fps)", "-bf", "0",
             "-movflags", "frag_keyframe+empty_moov", "-y", work + "/ffmpeg.mp4"]),
        run.status == 0
    {
        print(String(format: "  reference: ffmpeg (libx264 ultrafast, zerolatency) live for %d s, peak RSS %.1f MB",
                     reference, Double(run.maxRSSKilobytes) / 1024))
    }
}

/// Runs `path` with `arguments` to its end: its exit status, standard output and
/// peak resident set in kilobytes (ru_maxrss from wait4, the child alone).
private func runMeasured(_ path: String, _ arguments: [String]) -> (status: Int32, output: String, maxRSSKilobytes: Int)? {
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
    while true {
        let count = read(pipeEnds[0], &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        output += buffer[0..<count]
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, String(decoding: output, as: UTF8.self), usage.ru_maxrss)
}
