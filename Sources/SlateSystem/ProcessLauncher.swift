import Glibc
import SlateCore
import SystemPackage

/// Starts `exec` actions: a program and its arguments (found on PATH, never
/// through a shell), with Slate's environment and the event's details. A
/// program's standard output goes where its standard error goes, Slate's log,
/// never into Slate's report stream. Children are reaped without blocking.
public enum ProcessLauncher {
    /// Starts `argv` and returns its pid (`posix_spawnp`). Its environment is
    /// Slate's, less the variables named in `replacing`, plus `extra`.
    @discardableResult
    public static func launch(
        _ argv: [String], environment extra: [(String, String)], replacing: Set<String> = []
    ) throws(OperationError) -> pid_t {
        guard !argv.isEmpty else {
            throw OperationError("run an empty command", cause: SystemCallError("posix_spawnp", errno: .invalidArgument))
        }
        let names = replacing.union(extra.map(\.0))
        let environment =
            extra.map { "\($0.0)=\($0.1)" }
            + currentEnvironment().filter { line in
                guard let equals = line.firstIndex(of: "=") else { return false }
                return !names.contains(String(line[..<equals]))
            }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        return try spawn(argv, environment: environment, actions: &actions)
    }

    /// Runs `argv` to its end and returns its exit status (128 + the signal
    /// that ended it) and standard output. With `timeout`, a program still
    /// running then is killed (SIGKILL), and its status says so.
    public static func output(of argv: [String], timeout: Duration? = nil) throws(OperationError) -> (
        status: Int32, output: String
    ) {
        let program = argv.first ?? "exec"
        let ends = try makePipe(for: program)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends.write.rawValue, 1)
        let pid: pid_t
        do {
            pid = try spawn(argv, environment: currentEnvironment(), actions: &actions)
        } catch {
            try? ends.read.close()
            try? ends.write.close()
            throw error
        }
        try? ends.write.close()
        defer { try? ends.read.close() }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = timeout.map { MonotonicClock.now() + $0 }
        while true {
            if let deadline {
                let left = max(0, (deadline.microseconds - MonotonicClock.now().microseconds) / 1000)
                var ready = pollfd(fd: ends.read.rawValue, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, Int32(min(left, Int64(Int32.max)))) == 0 {
                    kill(pid, SIGKILL)
                    break
                }
            }
            guard
                case .success(let count) = buffer.withUnsafeMutableBytes({ raw in errnoResult { try ends.read.read(into: raw) } }),
                count > 0
            else { break }
            output += buffer[0..<count]
        }
        let status = try Syscall.wait(pid, options: 0).value("waitpid", on: program, to: "wait for").status
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, String(decoding: output, as: UTF8.self))
    }

    /// A pipe whose ends are closed on exec from the start (`pipe2` with
    /// O_CLOEXEC): a program another thread starts meanwhile never holds them.
    package static func makePipe(for program: String) throws(OperationError) -> (read: FileDescriptor, write: FileDescriptor) {
        let ends = try errnoResult { try FileDescriptor.pipe(options: .closeOnExec) }.value(
            "pipe2", on: program, to: "make a pipe")
        return (ends.readEnd, ends.writeEnd)
    }

    /// Starts a program with no signal blocked and default signal handling,
    /// whatever the caller's event loop blocks.
    private static func spawn(
        _ argv: [String], environment: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?
    ) throws(OperationError) -> pid_t {
        let program = argv[0]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = withCStrings(argv) { cArgv in
            withCStrings(environment) { cEnvironment in
                Syscall.spawn(program, actions, &attributes, cArgv, cEnvironment)
            }
        }
        return try spawned.value("posix_spawnp", on: program, to: "run")
    }

    private static func currentEnvironment() -> [String] {
        var environment: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            environment.append(String(cString: pointer))
            entry += 1
        }
        return environment
    }

    /// Collects every child that has exited (`waitpid` with WNOHANG).
    public static func reapChildren() {
        while case .success(let child) = Syscall.wait(-1, options: WNOHANG), child.pid > 0 {}
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
