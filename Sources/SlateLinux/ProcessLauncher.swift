import CSlateShim
import Glibc

/// Starts `exec` actions: a program and its arguments (found on PATH, never
/// through a shell), with the event's details added to the environment.
/// Children are reaped without blocking.
public enum ProcessLauncher {
    /// Starts `argv` and returns its pid (`posix_spawnp`).
    @discardableResult
    public static func launch(_ argv: [String], environment extra: [(String, String)]) throws(SystemError) -> pid_t {
        guard let program = argv.first else { throw SystemError("run an empty command", path: "exec", errno: EINVAL) }
        let names = Set(extra.map(\.0))
        var environment = extra.map { "\($0.0)=\($0.1)" }
        var entry = environ
        while let pointer = entry.pointee {
            let line = String(cString: pointer)
            if let equals = line.firstIndex(of: "="), !names.contains(String(line[..<equals])) {
                environment.append(line)
            }
            entry += 1
        }
        var pid: pid_t = 0
        let status = withCStrings(argv) { cArgv in
            withCStrings(environment) { cEnvironment in
                posix_spawnp(&pid, program, nil, nil, cArgv, cEnvironment)
            }
        }
        guard status == 0 else { throw SystemError("run (posix_spawnp)", path: program, errno: status) }
        return pid
    }

    /// Collects every child that has exited (`waitpid` with WNOHANG).
    public static func reapChildren() {
        var status: Int32 = 0
        while waitpid(-1, &status, WNOHANG) > 0 {}
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
