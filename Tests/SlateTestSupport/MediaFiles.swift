import Foundation
import Glibc
import SlateSystem
import SystemPackage
import Testing

/// The tests' media files and the `slate` executable: fresh folders, `slate`
/// started as from a shell, and ffprobe's own reading of a video file.
package enum MediaFiles {
    /// A fresh folder for one test's media files.
    package static func folder(_ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("slate-media-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Removes a test's folder and what it holds.
    package static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The `slate` executable built next to the test binary.
    package static let slate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("slate").path

    /// Starts `slate` with `arguments`, its standard output on a pipe, and
    /// returns once it printed its first line (the rest stays in the pipe).
    /// The child starts with no signals blocked, as from a shell, whatever
    /// mask this test thread inherited from other tests' event loops.
    package static func startSlate(_ arguments: [String]) throws -> (process: Process, output: Pipe, firstLine: String) {
        let (process, out) = try launchSlate(arguments)
        var text = ""
        while !text.contains("\n") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return (process, out, text)
    }

    /// The user whom file permissions bind, to run `slate` as: nobody (through
    /// setpriv) when the tests run as root, whom permissions do not stop; else nil,
    /// this process's own user.
    package static let unprivilegedUser: (uid: uid_t, gid: gid_t)? = getuid() == 0 ? (65534, 65534) : nil

    /// Gives `path` to the unprivileged user, when that is not this process's user.
    package static func giveToUnprivilegedUser(_ path: String) throws {
        guard let user = unprivilegedUser else { return }
        guard chown(path, user.uid, user.gid) == 0 else {
            throw SystemCallError("chown", subject: path, errno: Errno(rawValue: errno))
        }
    }

    /// Starts `slate` with `arguments` and its standard output on a pipe (its
    /// standard error on `errors`, if given; `environment` added to this
    /// process's), with no signals blocked, as from a shell; with `unprivileged`,
    /// as `unprivilegedUser`.
    package static func launchSlate(
        _ arguments: [String], errors: Pipe? = nil, environment: [String: String] = [:],
        unprivileged: Bool = false
    ) throws -> (process: Process, output: Pipe) {
        let process = Process()
        if unprivileged, let user = unprivilegedUser {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", slate] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: slate)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors ?? FileHandle.nullDevice
        var none = sigset_t(), saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
        return (process, out)
    }

    /// ffprobe's path, when it is installed.
    package static let ffprobe: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// ffprobe could not read a file: its exit status and standard error.
    struct FFprobeFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Packets ffprobe counts in the first video stream and its duration in
    /// seconds: an independent reading of the file. ffprobe failing on the file,
    /// reporting an error in it or finding no video stream throws, with ffprobe's
    /// standard error and the path; with `killed` (a file whose writing was
    /// killed), a last fragment cut short ("partial file") is not an error.
    /// Without ffprobe the result is nil and a warning says the file was not checked.
    package static func ffprobeCount(_ path: String, killed: Bool = false, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (
            packets: Int, seconds: Double
        )?
    {
        guard let ffprobe else {
            Issue.record(
                "ffprobe is not installed (Debian package ffmpeg): \(path) was not checked with it", severity: .warning,
                sourceLocation: sourceLocation)
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
            "stream=nb_read_packets:packet=pts_time,duration_time", "-of", "default=nw=1", path,
        ]
        let out = Pipe()
        // Standard error goes to a file: a pipe left unread could fill up and block ffprobe.
        var template = Array((FileManager.default.temporaryDirectory.path + "/slate-ffprobe-XXXXXX").utf8CString)
        let errorsFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let errorsPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard errorsFD >= 0 else {
            throw SystemCallError("mkstemp", subject: errorsPath, errno: Errno(rawValue: errno))
        }
        defer { unlink(errorsPath) }
        process.standardOutput = out
        process.standardError = FileHandle(fileDescriptor: errorsFD, closeOnDealloc: true)
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw FFprobeFailure(
                description:
                    "ffprobe \(path) failed (status \(process.terminationStatus)): \(errors.isEmpty ? "no message" : errors)")
        }
        let complaints = errors.split(separator: "\n").filter { !(killed && $0.hasSuffix(": partial file")) }
        guard complaints.isEmpty else {
            throw FFprobeFailure(description: "ffprobe \(path) reports errors: \(complaints.joined(separator: "\n"))")
        }
        var packets: Int?, end = 0.0, start = Double.infinity
        var lastPTS = 0.0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "nb_read_packets": packets = Int(parts[1])
            case "pts_time":
                lastPTS = Double(parts[1]) ?? 0
                start = min(start, lastPTS)
            case "duration_time": end = max(end, lastPTS + (Double(parts[1]) ?? 0))
            default: break
            }
        }
        guard let packets else {
            throw FFprobeFailure(description: "ffprobe \(path) found no video stream: \(errors.isEmpty ? text : errors)")
        }
        return (packets, start.isFinite ? end - start : 0)
    }
}
