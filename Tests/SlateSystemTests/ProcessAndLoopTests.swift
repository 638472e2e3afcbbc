import Foundation
import Glibc
import SlateCore
import SystemPackage
import Testing

@testable import SlateSystem

@Suite struct ProcessLauncherTests {
    @Test func runsTheProgramWithItsArgumentsAndTheEventEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-exec-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("out").path
        let pid = try ProcessLauncher.launch(
            ["sh", "-c", "printf '%s|%s|%s' \"$1\" \"$SLATE_INPUT\" \"$SLATE_ROLE\" > \"$2\"", "sh", "it's; $(not run)", file],
            environment: [("SLATE_INPUT", "pedals"), ("SLATE_ROLE", "primary")])
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "it's; $(not run)|pedals|primary")
    }

    @Test func aMissingProgramIsAnErrorNamingIt() {
        let error = #expect(throws: OperationError.self) {
            try ProcessLauncher.launch(["/nonexistent/program"], environment: [])
        }
        #expect(error?.description == "/nonexistent/program: cannot run: posix_spawnp: No such file or directory (ENOENT)")
    }

    /// Makes and closes pipes on a thread of its own, noting each one's inode.
    final class PipeMaker: @unchecked Sendable {
        private let lock = NSLock()
        private var inodes: Set<UInt64> = []
        private var running = true
        private let done = DispatchSemaphore(value: 0)

        func start() {
            Thread {
                while self.lock.withLock({ self.running }) {
                    guard let ends = try? ProcessLauncher.makePipe(for: "test") else { continue }
                    let inode = try? ends.read.stat().inode.rawValue
                    try? ends.read.close()
                    try? ends.write.close()
                    if let inode { self.lock.withLock { _ = self.inodes.insert(UInt64(inode)) } }
                }
                self.done.signal()
            }.start()
        }

        /// Stops the thread; the inodes of every pipe it made.
        func stop() -> Set<UInt64> {
            lock.withLock { running = false }
            done.wait()
            return lock.withLock { inodes }
        }
    }

    @Test func aProgramStartedWhileAnotherThreadMakesAPipeDoesNotGetIt() throws {
        let maker = PipeMaker()
        maker.start()
        var held: [String] = []
        for _ in 0..<200 {
            let pid = try ProcessLauncher.launch(["sleep", "10"], environment: [])
            // posix_spawnp returns once the program runs: its descriptors are those it keeps.
            let fds = "/proc/\(pid)/fd"
            held += ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0)
            }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        let made = maker.stop()
        let inherited = held.filter { target in
            target.hasPrefix("pipe:[") && UInt64(target.dropFirst(6).dropLast()).map(made.contains) == true
        }
        #expect(made.count > 1000, "the thread made pipes all along")
        #expect(inherited.isEmpty, "programs got \(inherited.count) of the pipes made meanwhile")
    }
}

@Suite struct EventLoopTests {
    @Test func readableDescriptorsAndDeadlinesWakeTheLoop() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var received = ""
        try loop.watch(FileDescriptor(rawValue: fds[0])) {
            var byte: UInt8 = 0
            if read(fds[0], &byte, 1) == 1 { received.append(Character(UnicodeScalar(byte))) }
        }
        var wakes = 0
        let deadline = MonotonicClock.now() + .milliseconds(30)
        _ = write(fds[1], "x", 1)
        try loop.run(
            nextDeadline: { wakes < 2 ? deadline : nil },
            afterWake: {
                wakes += 1
                if wakes == 2 { loop.stop() }
            })
        #expect(received == "x")
        #expect(MonotonicClock.now() >= deadline)
    }

    @Test func signalsArriveOnTheLoop() throws {
        let loop = try EventLoop()
        var signals: [Int32] = []
        try loop.handleSignals([SIGUSR1]) { signal in
            signals.append(signal)
            loop.stop()
        }
        pthread_kill(pthread_self(), SIGUSR1)
        try loop.run(nextDeadline: { nil }, afterWake: {})
        #expect(signals == [SIGUSR1])
    }

    @Test func aFailedWaitEndsTheLoopWithItsCause() throws {
        let loop = try EventLoop()
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        // The loop's descriptor is no longer an epoll instance: epoll_wait fails with EINVAL.
        #expect(dup2(null, loop.epoll.rawValue) == loop.epoll.rawValue)
        var wakes = 0
        let error = #expect(throws: OperationError.self) {
            try loop.run(nextDeadline: { .init(microseconds: 0) }, afterWake: { wakes += 1 })
        }
        #expect(error?.errno == .invalidArgument && wakes == 0)
        #expect(error?.description == "cannot wait for events: epoll_wait: Invalid argument (EINVAL)")
    }
}
