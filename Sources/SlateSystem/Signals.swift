import Glibc

/// The signals Slate's commands handle, by name, for `EventLoop.handleSignals`.
public enum Signal {
    public static var interrupt: Int32 { SIGINT }
    public static var terminate: Int32 { SIGTERM }
    public static var hangUp: Int32 { SIGHUP }
    public static var child: Int32 { SIGCHLD }
    public static var kill: Int32 { SIGKILL }
}

/// What the process is and has used.
public enum ProcessInfoReading {
    /// The working folder (`getcwd`); nil when it cannot be read.
    public static var workingFolder: String? {
        guard let here = getcwd(nil, 0) else { return nil }
        defer { free(here) }
        return String(cString: here)
    }

    /// The CPU time the process's threads have used, user and system, in microseconds (`getrusage`).
    public static var cpuMicroseconds: Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Int64(usage.ru_utime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec)
        return user + Int64(usage.ru_stime.tv_sec) * 1_000_000 + Int64(usage.ru_stime.tv_usec)
    }

    /// The most memory the process has held, in bytes (`getrusage` ru_maxrss).
    public static var peakMemory: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
