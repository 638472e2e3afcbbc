import CSlateShim
import CV4L2
import Glibc
import SystemPackage

// The one place Slate calls the C system calls that swift-system's
// `FileDescriptor` does not wrap: epoll, signalfd, eventfd, poll, ioctl (the
// kernel's and libv4l2's), mmap, the *at() calls on an open folder, fsync,
// flock and fallocate, signal masks, posix_spawn, waitpid and threads. Each
// returns `Result<_, Errno>`; a call interrupted by a signal (EINTR) is retried
// here, except a timed wait, which reports that nothing is ready so that its
// caller works out the time left. Callers name the operation and the device or
// path when they turn the errno into a `SystemCallError`.

/// The result of a call that returns -1 and sets errno on failure, retried while
/// it fails with EINTR.
private func valueOrErrno<I: FixedWidthInteger>(_ call: () -> I) -> Result<I, Errno> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        let error = Errno(rawValue: Glibc.errno)
        if error != .interrupted { return .failure(error) }
    }
}

/// The result of a call that returns -1 and sets errno on failure, without
/// retrying: an interrupted wait (EINTR) is `interrupted`.
private func waitOrErrno<I: FixedWidthInteger>(_ call: () -> I, interrupted: I) -> Result<I, Errno> {
    let value = call()
    if value != -1 { return .success(value) }
    let error = Errno(rawValue: Glibc.errno)
    return error == .interrupted ? .success(interrupted) : .failure(error)
}

/// The result of a call that returns an error number (0 on success) instead of setting errno.
private func nothingOrErrorNumber(_ status: Int32) -> Result<Void, Errno> {
    status == 0 ? .success(()) : .failure(Errno(rawValue: status))
}

/// A swift-system call (whose errors are always `Errno`) as a `Result`.
package func errnoResult<T>(_ call: () throws -> T) -> Result<T, Errno> {
    do {
        return .success(try call())
    } catch let error as Errno {
        return .failure(error)
    } catch {
        preconditionFailure("swift-system threw \(error), not an Errno")
    }
}

package enum Syscall {
    /// errno as a library call that just failed left it (libudev's constructors).
    package static var lastError: Errno { Errno(rawValue: Glibc.errno) }

    // MARK: Event loop

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    package static func epollCreate() -> Result<FileDescriptor, Errno> {
        valueOrErrno { epoll_create1(Int32(EPOLL_CLOEXEC)) }.map(FileDescriptor.init(rawValue:))
    }

    /// `epoll_ctl(EPOLL_CTL_ADD)`: `fd` having `events` (readable or hung up, by
    /// default), or an error, wakes `epoll`.
    package static func epollAdd(_ epoll: FileDescriptor, _ fd: FileDescriptor, for events: PollEvents = .input)
        -> Result<Void, Errno>
    {
        var event = epoll_event()
        event.events = events.epoll
        event.data.fd = fd.rawValue
        return valueOrErrno { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd.rawValue, &event) }.map { _ in }
    }

    /// `epoll_ctl(EPOLL_CTL_DEL)`.
    package static func epollRemove(_ epoll: FileDescriptor, _ fd: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd.rawValue, nil) }.map { _ in }
    }

    /// `epoll_wait`: the descriptors ready, at most `capacity`, within `timeout`
    /// milliseconds (-1: no limit); none when a signal interrupted the wait.
    package static func epollWait(_ epoll: FileDescriptor, capacity: Int, timeout: Int32) -> Result<[FileDescriptor], Errno> {
        var events = [epoll_event](repeating: epoll_event(), count: capacity)
        return waitOrErrno({ epoll_wait(epoll.rawValue, &events, Int32(capacity), timeout) }, interrupted: 0).map {
            events.prefix(Int($0)).map { FileDescriptor(rawValue: $0.data.fd) }
        }
    }

    /// `pthread_sigmask`: applies `how` (SIG_BLOCK, SIG_SETMASK) with `signals` to
    /// this thread's mask; returns the mask before.
    private static func setSignalMask(_ how: Int32, _ signals: sigset_t) -> Result<sigset_t, Errno> {
        var mask = signals, old = sigset_t()
        return nothingOrErrorNumber(pthread_sigmask(how, &mask, &old)).map { old }
    }

    /// `pthread_sigmask(SIG_BLOCK)` of `signals` on this thread.
    package static func blockSignals(_ signals: [Int32]) -> Result<Void, Errno> {
        setSignalMask(SIG_BLOCK, signalSet(signals)).map { _ in }
    }

    /// `sigaction` of each of `signals` to SIG_DFL: a signal the parent
    /// ignored (a shell's `&` ignores SIGINT) is delivered again, so a
    /// signalfd reads it while it is blocked.
    package static func defaultDisposition(_ signals: [Int32]) -> Result<Void, Errno> {
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&action.sa_mask)
            guard sigaction(signal, &action, nil) == 0 else { return .failure(Errno(rawValue: errno)) }
        }
        return .success(())
    }

    /// `pthread_sigmask(SIG_BLOCK)` of every signal on this thread: the mask before, to restore.
    package static func blockAllSignals() -> Result<sigset_t, Errno> {
        var all = sigset_t()
        sigfillset(&all)
        return setSignalMask(SIG_BLOCK, all)
    }

    /// `pthread_sigmask(SIG_SETMASK)`: this thread's mask becomes `mask`.
    package static func restoreSignalMask(_ mask: sigset_t) {
        _ = setSignalMask(SIG_SETMASK, mask)
    }

    /// `signalfd(-1, signals, SFD_NONBLOCK | SFD_CLOEXEC)`.
    package static func signalDescriptor(_ signals: [Int32]) -> Result<FileDescriptor, Errno> {
        var mask = signalSet(signals)
        return valueOrErrno { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }.map(FileDescriptor.init(rawValue:))
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }

    /// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
    package static func eventDescriptor() -> Result<FileDescriptor, Errno> {
        valueOrErrno { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }.map(FileDescriptor.init(rawValue:))
    }

    /// `read` of the next signal from a signalfd: its number, nil when none is pending.
    package static func readSignal(_ fd: FileDescriptor) -> Result<Int32?, Errno> {
        readRecord(fd, initial: signalfd_siginfo()).map { $0.map { Int32($0.ssi_signo) } }
    }

    /// `read` of an eventfd's counter, which sets it back to 0: nil when it was 0.
    package static func readCounter(_ fd: FileDescriptor) -> Result<UInt64?, Errno> {
        readRecord(fd, initial: UInt64(0))
    }

    /// `write` of an increment to an eventfd's counter.
    package static func addToCounter(_ fd: FileDescriptor, _ increment: UInt64) -> Result<Void, Errno> {
        var record = increment
        return valueOrErrno { Glibc.write(fd.rawValue, &record, MemoryLayout<UInt64>.size) }.map { _ in }
    }

    /// `read` of one fixed-size record from a device: nil when none is pending
    /// (EAGAIN) or the read came short.
    private static func readRecord<T: BitwiseCopyable>(_ fd: FileDescriptor, initial: T) -> Result<T?, Errno> {
        var record = initial
        let size = MemoryLayout<T>.size
        let read = withUnsafeMutableBytes(of: &record) { bytes in
            valueOrErrno { Glibc.read(fd.rawValue, bytes.baseAddress, size) }
        }
        switch read {
        case .success(let count): return .success(count == size ? record : nil)
        case .failure(.resourceTemporarilyUnavailable): return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }

    /// `poll` of descriptors for input within `timeout` milliseconds (-1: no
    /// limit): those readable or reporting an error; none when a signal
    /// interrupted the wait or the time passed.
    package static func pollInputs(_ fds: [FileDescriptor], timeout: Int32) -> Result<[FileDescriptor], Errno> {
        var entries = fds.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        return waitOrErrno({ poll(&entries, nfds_t(entries.count), timeout) }, interrupted: 0).map { _ in
            entries.filter { $0.revents != 0 }.map { FileDescriptor(rawValue: $0.fd) }
        }
    }

    /// `poll` of each descriptor for its events within `timeout` milliseconds
    /// (-1: no limit): the events found on each, in order; none on any when a
    /// signal interrupted the wait or the time passed.
    package static func pollEvents(_ entries: [(fd: FileDescriptor, events: PollEvents)], timeout: Int32) -> Result<
        [PollEvents], Errno
    > {
        var polled = entries.map { pollfd(fd: $0.fd.rawValue, events: $0.events.rawValue, revents: 0) }
        return waitOrErrno({ poll(&polled, nfds_t(polled.count), timeout) }, interrupted: 0).map { ready in
            polled.map { ready > 0 ? PollEvents(rawValue: $0.revents) : [] }
        }
    }

    /// `poll` of one descriptor for input within `timeout` milliseconds: whether
    /// it is readable or reports an error; false when a signal interrupted the wait.
    package static func pollInput(_ fd: FileDescriptor, timeout: Int32) -> Result<Bool, Errno> {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        return waitOrErrno({ poll(&entry, 1, timeout) }, interrupted: 0).map { $0 > 0 }
    }

    // MARK: Devices

    /// The kernel's own `ioctl(fd, request, argument)`.
    package static func ioctl<T>(_ fd: FileDescriptor, _ request: UInt, _ argument: inout T) -> Result<Void, Errno> {
        withUnsafeMutablePointer(to: &argument) { pointer in
            valueOrErrno { slate_ioctl(fd.rawValue, request, pointer) }.map { _ in }
        }
    }

    /// The kernel's own `ioctl(fd, request, buffer)`, for a request that takes bytes.
    package static func ioctl(_ fd: FileDescriptor, _ request: UInt, bytes: inout [UInt8]) -> Result<Void, Errno> {
        bytes.withUnsafeMutableBytes { buffer in
            valueOrErrno { slate_ioctl(fd.rawValue, request, buffer.baseAddress) }.map { _ in }
        }
    }

    /// libv4l2's `v4l2_ioctl(fd, request, argument)` (which converts formats).
    package static func v4l2Ioctl<T>(_ fd: FileDescriptor, _ request: UInt, _ argument: inout T) -> Result<Void, Errno> {
        withUnsafeMutablePointer(to: &argument) { pointer in
            valueOrErrno { slate_v4l2_ioctl(fd.rawValue, request, pointer) }.map { _ in }
        }
    }

    /// `VIDIOC_G_EXT_CTRLS` of one control (`wide`: a 64-bit one).
    package static func v4l2GetControl(_ fd: FileDescriptor, _ id: UInt32, wide: Bool) -> Result<Int64, Errno> {
        var value: Int64 = 0
        return valueOrErrno { slate_v4l2_get_control(fd.rawValue, id, wide ? 1 : 0, &value) }.map { _ in value }
    }

    /// `VIDIOC_S_EXT_CTRLS` of one control (`wide`: a 64-bit one).
    package static func v4l2SetControl(_ fd: FileDescriptor, _ id: UInt32, wide: Bool, _ value: Int64) -> Result<Void, Errno> {
        valueOrErrno { slate_v4l2_set_control(fd.rawValue, id, wide ? 1 : 0, value) }.map { _ in }
    }

    /// `VIDIOC_QUERYMENU`: a menu entry's name and value.
    package static func v4l2QueryMenu(_ fd: FileDescriptor, _ id: UInt32, index: UInt32) -> Result<
        (name: String, value: Int64), Errno
    > {
        var name = [CChar](repeating: 0, count: 32)
        var value: Int64 = 0
        return valueOrErrno { slate_v4l2_querymenu(fd.rawValue, id, index, &name, &value) }.map { _ in
            (String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), value)
        }
    }

    /// `VIDIOC_DQEVENT` of one pending event; a control event's fields read out
    /// (`V4L2_EVENT_CTRL`). Fails with ENOENT when none is pending.
    package static func v4l2DequeueEvent(_ fd: FileDescriptor) -> Result<slate_control_event, Errno> {
        var event = slate_control_event()
        return valueOrErrno { slate_v4l2_dequeue_event(fd.rawValue, &event) }.map { _ in event }
    }

    /// `v4l2_fd_open`: libv4l2 takes `fd` over.
    package static func v4l2Open(_ fd: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { v4l2_fd_open(fd.rawValue, 0) }.map { _ in }
    }

    /// `v4l2_close`: libv4l2 lets go of `fd` and closes it.
    package static func v4l2Close(_ fd: FileDescriptor) {
        _ = v4l2_close(fd.rawValue)
    }

    /// `v4l2_mmap` of a capture buffer, shared and writable.
    package static func v4l2Map(_ fd: FileDescriptor, length: Int, offset: Int64) -> Result<UnsafeMutableRawBufferPointer, Errno>
    {
        guard let pointer = v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, offset),
            pointer != MAP_FAILED
        else { return .failure(Errno(rawValue: Glibc.errno)) }
        return .success(UnsafeMutableRawBufferPointer(start: pointer, count: length))
    }

    /// `v4l2_munmap`.
    package static func v4l2Unmap(_ buffer: UnsafeMutableRawBufferPointer) {
        _ = v4l2_munmap(buffer.baseAddress, buffer.count)
    }

    // MARK: Files in an open folder

    /// `openat(folder, name, ...)`.
    package static func open(
        _ name: String, in folder: FileDescriptor, _ access: FileDescriptor.AccessMode,
        options: FileDescriptor.OpenOptions, permissions: FilePermissions? = nil
    ) -> Result<FileDescriptor, Errno> {
        valueOrErrno {
            openat(folder.rawValue, name, access.rawValue | options.rawValue, permissions?.rawValue ?? 0)
        }.map(FileDescriptor.init(rawValue:))
    }

    /// `unlinkat(folder, name, 0)`.
    package static func unlink(_ name: String, in folder: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { unlinkat(folder.rawValue, name, 0) }.map { _ in }
    }

    /// `renameat`, replacing `newName` if it exists.
    package static func rename(_ name: String, to newName: String, in folder: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { renameat(folder.rawValue, name, folder.rawValue, newName) }.map { _ in }
    }

    /// `renameat2(RENAME_NOREPLACE)` (or `linkat` and `unlinkat`): EEXIST when `newName` exists.
    package static func renameNoReplace(_ name: String, to newName: String, in folder: FileDescriptor) -> Result<Void, Errno> {
        renameNoReplace(name, in: folder, to: newName, in: folder)
    }

    /// `renameat2(RENAME_NOREPLACE)` from one folder to another (of the same file system).
    package static func renameNoReplace(
        _ name: String, in folder: FileDescriptor, to newName: String, in destination: FileDescriptor
    ) -> Result<Void, Errno> {
        valueOrErrno { slate_renameat_noreplace(folder.rawValue, name, destination.rawValue, newName) }.map { _ in }
    }

    /// `access(path, F_OK)`: whether `path` exists.
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// `access(path, R_OK | W_OK)`: whether this user may open `path` for reading and writing.
    package static func mayReadAndWrite(_ path: String) -> Bool {
        access(path, R_OK | W_OK) == 0
    }

    /// `faccessat(folder, ".", W_OK)`: whether this user may create files in the folder.
    package static func checkWritable(_ folder: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { faccessat(folder.rawValue, ".", W_OK, 0) }.map { _ in }
    }

    /// `fstatvfs`: the bytes an unprivileged process may still write on the folder's file system.
    package static func freeBytes(_ folder: FileDescriptor) -> Result<Int64, Errno> {
        var info = statvfs()
        return valueOrErrno { fstatvfs(folder.rawValue, &info) }.map { _ in Int64(info.f_bavail) * Int64(info.f_frsize) }
    }

    /// `fchmod`.
    package static func setMode(_ fd: FileDescriptor, _ permissions: FilePermissions) -> Result<Void, Errno> {
        valueOrErrno { fchmod(fd.rawValue, permissions.rawValue) }.map { _ in }
    }

    /// `mkdir(path, permissions)`.
    package static func makeFolder(_ path: String, _ permissions: FilePermissions) -> Result<Void, Errno> {
        valueOrErrno { mkdir(path, permissions.rawValue) }.map { _ in }
    }

    /// `fsync`.
    package static func sync(_ fd: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { fsync(fd.rawValue) }.map { _ in }
    }

    /// `ftruncate`.
    package static func truncate(_ fd: FileDescriptor, to length: Int64) -> Result<Void, Errno> {
        valueOrErrno { ftruncate(fd.rawValue, __off_t(length)) }.map { _ in }
    }

    /// `posix_fallocate(fd, 0, length)`.
    package static func allocate(_ fd: FileDescriptor, length: Int64) -> Result<Void, Errno> {
        while true {
            let status = posix_fallocate(fd.rawValue, 0, off_t(length))
            if status != EINTR { return nothingOrErrorNumber(status) }
        }
    }

    /// `flock(LOCK_EX | LOCK_NB)`: `wouldBlock` while another descriptor holds it.
    package static func lockExclusively(_ fd: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { flock(fd.rawValue, LOCK_EX | LOCK_NB) }.map { _ in }
    }

    /// `flock(LOCK_EX)`, waiting for whoever holds it.
    package static func lockExclusivelyWaiting(_ fd: FileDescriptor) -> Result<Void, Errno> {
        valueOrErrno { flock(fd.rawValue, LOCK_EX) }.map { _ in }
    }

    /// `getrandom(2)` with no flags, until `buffer` is full.
    package static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) {
        var filled = 0
        while filled < buffer.count {
            if case .success(let count) = valueOrErrno({ slate_getrandom(buffer.baseAddress! + filled, buffer.count - filled) }) {
                filled += count
            }
        }
    }

    // MARK: Processes and threads

    /// `posix_spawnp`: the new process's id.
    package static func spawn(
        _ program: String, _ actions: UnsafePointer<posix_spawn_file_actions_t>?,
        _ attributes: UnsafePointer<posix_spawnattr_t>, _ argv: [UnsafeMutablePointer<CChar>?],
        _ environment: [UnsafeMutablePointer<CChar>?]
    ) -> Result<pid_t, Errno> {
        var pid: pid_t = 0
        return nothingOrErrorNumber(posix_spawnp(&pid, program, actions, attributes, argv, environment)).map { pid }
    }

    /// `waitpid(pid, options)`: the child's id and its wait status; 0 for the id
    /// when WNOHANG and no child has exited.
    package static func wait(_ pid: pid_t, options: Int32) -> Result<(pid: pid_t, status: Int32), Errno> {
        var status: Int32 = 0
        return valueOrErrno { waitpid(pid, &status, options) }.map { ($0, status) }
    }

    // MARK: Folders, paths and the process

    /// The names in folder `path` (`opendir`, `readdir`), those starting with a
    /// dot left out; none when it cannot be read.
    package static func folderEntries(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    /// `realpath`: the path with every link resolved; nil when it cannot be.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is a folder (`stat`, links followed).
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` is a regular file (`stat`, links followed).
    package static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// This process's executable (`/proc/self/exe`).
    package static var executablePath: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// An environment variable's value (`getenv`).
    package static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// This process's id (`getpid`).
    package static var processID: Int32 { getpid() }

    // MARK: The service manager

    /// Sends `bytes` as one datagram to the AF_UNIX socket at `path` (`@NAME`:
    /// an abstract one), from a socket of its own (`socket`, `sendto`).
    package static func sendDatagram(_ bytes: [UInt8], toUnixSocket path: String) -> Result<Void, Errno> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(path.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        if abstract { name[0] = 0 }
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return .failure(.fileNameTooLong) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1))
        return valueOrErrno { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }.flatMap {
            socket in
            defer { close(socket) }
            return valueOrErrno {
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                    }
                }
            }.map { _ in () }
        }
    }

    /// Whether standard error is the stream `JOURNAL_STREAM` names (`DEV:INODE`,
    /// as systemd sets it for a unit whose output goes to the journal).
    package static var standardErrorIsJournal: Bool {
        guard let stream = environmentValue("JOURNAL_STREAM") else { return false }
        let parts = stream.split(separator: ":")
        var info = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(2, &info) == 0 else {
            return false
        }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// The id of CLOCK_MONOTONIC, for libraries that stamp events with a clock of their choice.
    package static var monotonicClockID: Int32 { CLOCK_MONOTONIC }

    /// `pthread_create` of a thread that runs `body`, with every signal blocked.
    package static func startThread(_ body: sending @escaping () -> Void) -> Result<ThreadHandle, Errno> {
        final class Work {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var handle = pthread_t()
        let started = withSignalsBlocked {
            nothingOrErrorNumber(
                pthread_create(
                    &handle, nil,
                    { context in
                        Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                        return nil
                    }, context))
        }
        if case .failure = started { Unmanaged<Work>.fromOpaque(context).release() }
        return started.map { ThreadHandle(thread: handle) }
    }

    /// `pthread_join`.
    package static func joinThread(_ handle: ThreadHandle) {
        pthread_join(handle.thread, nil)
    }

    /// The calling thread (`pthread_self`).
    package static func currentThread() -> UInt { UInt(pthread_self()) }

    /// `prctl(PR_SET_NAME)` of the calling thread (at most 15 bytes).
    package static func nameThread(_ name: String) {
        slate_name_thread(name)
    }

    /// `setpriority` of the calling thread, where the process may set it.
    package static func setThreadNiceness(_ niceness: Int32) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(slate_gettid()), niceness)
    }

    /// The calling thread's id (`gettid`).
    package static var threadID: Int32 { slate_gettid() }

    // MARK: Limits

    /// `getrlimit(RLIMIT_NOFILE)`: how many descriptors the process may have
    /// open (soft), and the most it may raise that to (hard).
    package static func descriptorLimits() -> Result<(soft: Int, hard: Int), Errno> {
        var limit = rlimit()
        return valueOrErrno { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
            .map { _ in (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max)) }
    }

    /// `setrlimit(RLIMIT_NOFILE)` with a new soft limit; the hard one is kept.
    package static func setDescriptorLimit(soft: Int) -> Result<Void, Errno> {
        var limit = rlimit()
        return valueOrErrno { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }.flatMap { _ in
            limit.rlim_cur = rlim_t(soft)
            return valueOrErrno { setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }.map { _ in () }
        }
    }
}

/// A thread `Syscall.startThread` started, to join.
package struct ThreadHandle: Sendable {
    fileprivate let thread: pthread_t
}
