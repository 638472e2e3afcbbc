import CV4L2
import SlateCore
import SlateSystem
import SystemPackage

/// Why a camera operation failed; every case names the device.
public enum CameraError: Error, CustomStringConvertible {
    /// A failed open, ioctl or mmap: what Slate was doing, and the system call
    /// that failed on the device with its errno.
    case system(OperationError)
    /// The node is not a single-planar video capture device (an output, VBI or metadata node, say).
    case notACaptureDevice(path: String, card: String)
    /// The device captures but not by streaming I/O (mmap buffers).
    case noStreaming(path: String, card: String)
    /// The call needs another state, e.g. `nextFrame()` before `start()`.
    case state(path: String, operation: String, reason: String)

    public var path: String {
        switch self {
        case .system(let error): error.subject ?? ""
        case .notACaptureDevice(let path, _), .noStreaming(let path, _), .state(let path, _, _): path
        }
    }

    /// `action` failed because the call `operation` on the device at `path` failed with `errno`.
    static func system(_ action: String, _ operation: String, path: String, _ errno: Errno) -> CameraError {
        .system(OperationError(action, cause: SystemCallError(operation, subject: path, errno: errno)))
    }

    /// The device went away (unplugged, driver unbound): ENODEV.
    public var isDeviceGone: Bool {
        if case .system(let error) = self { return error.errno == .noSuchDevice }
        return false
    }

    public var description: String {
        switch self {
        case .system(let error):
            error.errno == .noSuchDevice ? "\(error); the camera is gone (unplugged or its driver unbound)" : "\(error)"
        case .notACaptureDevice(let path, let card):
            "\(path): \(card.isEmpty ? "" : "'\(card)' ")is not a video capture device"
        case .noStreaming(let path, let card):
            "\(path): '\(card)' captures but does not support streaming I/O"
        case .state(let path, let operation, let reason): "\(path): cannot \(operation): \(reason)"
        }
    }
}

/// When a frame was captured, its number and the driver's flags.
public struct FrameInfo: Sendable {
    /// On CLOCK_MONOTONIC: the driver's timestamp when it is monotonic
    /// (`V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`), else the time of the dequeue.
    public var timestamp: Instant
    /// The timestamp is the driver's own (not taken at dequeue).
    public var hasDriverTimestamp: Bool
    /// The driver's frame counter; a gap means frames were dropped.
    public var sequence: UInt32
    /// `V4L2_BUF_FLAG_*`.
    public var flags: UInt32

    /// The driver marked the frame as possibly corrupt (`V4L2_BUF_FLAG_ERROR`).
    public var isCorrupt: Bool { flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 }
    public var isKeyframe: Bool { flags & UInt32(V4L2_BUF_FLAG_KEYFRAME) != 0 }
}

/// One dequeued frame with its bytes copied out of the driver's buffer.
public struct CapturedFrame: Sendable {
    public var bytes: [UInt8]
    public var info: FrameInfo

    public var timestamp: Instant { info.timestamp }
    public var hasDriverTimestamp: Bool { info.hasDriverTimestamp }
    public var sequence: UInt32 { info.sequence }
    public var flags: UInt32 { info.flags }
    public var isCorrupt: Bool { info.isCorrupt }
    public var isKeyframe: Bool { info.isKeyframe }
}

/// A V4L2 capture device opened through libv4l2, streaming into mmap buffers.
/// Stops streaming, unmaps the buffers and closes the device on deinit.
public final class V4L2Camera {
    public let path: String
    /// `VIDIOC_QUERYCAP`: the card name, e.g. `"HD Pro Webcam C920"` or `"vivid"`.
    public let card: String
    public let driver: String
    /// Where the device sits, e.g. `"usb-0000:00:14.0-1"` or `"platform:vivid-000"`.
    public let busInfo: String
    /// The node's capabilities (`device_caps`), `V4L2_CAP_*`.
    public let capabilities: UInt32
    /// The device's file descriptor, to watch with epoll: readable when a frame
    /// is ready; -1 once closed (every call then fails with EBADF).
    public private(set) var fd: FileDescriptor

    public private(set) var isStreaming = false
    /// Frames dequeued since `start()`.
    public private(set) var framesCaptured = 0
    /// Frames the driver numbered but never handed out (`sequence` gaps): a lower bound.
    public var droppedFrames: Int { sequence.dropped }
    /// The format set by `configure` (as the driver set it): bytes per line and per frame.
    public private(set) var bytesPerLine = 0
    public private(set) var frameBytes = 0
    /// The colours the driver states for the format set (BT.709 when it states none).
    public private(set) var color = ColorTags.bt709

    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var sequence = FrameSequence()
    /// The thread the camera belongs to: the one that opened it, or adopted it
    /// since. In debug builds a call from any other thread stops Slate.
    private var owner = ThreadOwner()
    private static let captureType = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
    private static let mmapMemory = V4L2_MEMORY_MMAP.rawValue

    /// Opens `path` (non-blocking), checks it is a capture device with streaming I/O
    /// (`VIDIOC_QUERYCAP`), then hands the descriptor to libv4l2 (`v4l2_fd_open`).
    public init(path: String) throws(CameraError) {
        let fd = try errnoResult { try FileDescriptor.open(FilePath(path), .readWrite, options: [.nonBlocking, .closeOnExec]) }
            .camera("open", on: path, to: "open")
        var cap = v4l2_capability()
        // The kernel's own answer first: libv4l2 prints its failures to stderr.
        do {
            try Syscall.ioctl(fd, slate_vidioc_querycap(), &cap).camera("VIDIOC_QUERYCAP", on: path, to: "query capabilities")
        } catch {
            try? fd.close()
            throw error
        }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        let card = Self.string(cap.card)
        guard caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            try? fd.close()
            throw .notACaptureDevice(path: path, card: card)
        }
        guard caps & UInt32(V4L2_CAP_STREAMING) != 0 else {
            try? fd.close()
            throw .noStreaming(path: path, card: card)
        }
        do {
            try Syscall.v4l2Open(fd).camera("v4l2_fd_open", on: path, to: "set up libv4l2")
        } catch {
            try? fd.close()
            throw error
        }
        self.path = path
        self.fd = fd
        self.card = card
        self.driver = Self.string(cap.driver)
        self.busInfo = Self.string(cap.bus_info)
        self.capabilities = caps
    }

    deinit { close() }

    /// Makes the calling thread the camera's owner: the only one that may use it from now on.
    public func adopt() { owner.adopt() }

    /// Stops Slate in a debug build when the calling thread is not the camera's owner.
    func checkOwner(_ function: String = #function) { owner.check(path, function) }

    /// Stops streaming and closes the device, so it can be opened and set up
    /// again (a driver refuses a new format while another descriptor holds
    /// buffers). Calls after this fail with EBADF. Safe to call twice.
    public func close() {
        // A camera its owner closed may be let go from any thread.
        guard fd.rawValue >= 0 else { return }
        checkOwner()
        stop()
        Syscall.v4l2Close(fd)
        fd = FileDescriptor(rawValue: -1)
    }

    /// The `/dev/video*` nodes, in number order (capture devices or not).
    public static func devicePaths(in folder: String = "/dev") -> [String] {
        let numbers = Syscall.folderEntries(folder).compactMap { name in
            name.hasPrefix("video") ? Int(name.dropFirst(5)) : nil
        }
        return numbers.sorted().map { "\(folder)/video\($0)" }
    }

    // MARK: Modes

    /// Every pixel format, frame size and frame interval the device lists
    /// (`VIDIOC_ENUM_FMT`, `VIDIOC_ENUM_FRAMESIZES`, `VIDIOC_ENUM_FRAMEINTERVALS`).
    /// A stepwise frame size gives its largest and smallest sizes and the common sizes between them.
    public func modes() throws(CameraError) -> [CameraMode] {
        checkOwner()
        var modes: [CameraMode] = []
        var index: UInt32 = 0
        while true {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = Self.captureType
            let listed = Syscall.v4l2Ioctl(fd, slate_vidioc_enum_fmt(), &desc)
            if case .failure(.invalidArgument) = listed { break }
            try listed.camera("VIDIOC_ENUM_FMT", on: path, to: "list pixel formats")
            index += 1
            let format = FourCC(rawValue: desc.pixelformat)
            for (width, height) in try frameSizes(desc.pixelformat) {
                modes.append(
                    CameraMode(
                        pixelFormat: format, formatName: Self.string(desc.description),
                        isCompressed: desc.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                        isEmulated: desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0, width: width, height: height,
                        intervals: try frameIntervals(desc.pixelformat, width: width, height: height)))
            }
        }
        return modes
    }

    private static let commonSizes = [
        (3840, 2160), (2560, 1440), (1920, 1080), (1600, 1200), (1280, 960), (1280, 720), (1024, 768), (800, 600),
        (640, 480), (640, 360), (352, 288), (320, 240), (320, 180), (176, 144), (160, 120),
    ]

    private func frameSizes(_ pixelFormat: UInt32) throws(CameraError) -> [(Int, Int)] {
        var sizes: [(Int, Int)] = []
        var index: UInt32 = 0
        while true {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = pixelFormat
            let listed = Syscall.v4l2Ioctl(fd, slate_vidioc_enum_framesizes(), &size)
            if case .failure(.invalidArgument) = listed { break }
            if case .failure(.inappropriateIOCTLForDevice) = listed { break }
            try listed.camera("VIDIOC_ENUM_FRAMESIZES", on: path, to: "list frame sizes")
            index += 1
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
                continue
            }
            let range = size.stepwise
            let stepW = max(1, Int(range.step_width)), stepH = max(1, Int(range.step_height))
            let minW = Int(range.min_width), maxW = Int(range.max_width)
            let minH = Int(range.min_height), maxH = Int(range.max_height)
            sizes.append((maxW, maxH))
            for (width, height) in Self.commonSizes
            where (minW...max(minW, maxW)).contains(width) && (minH...max(minH, maxH)).contains(height)
                && (width - minW) % stepW == 0 && (height - minH) % stepH == 0 && (width, height) != (maxW, maxH)
            {
                sizes.append((width, height))
            }
            if (minW, minH) != (maxW, maxH) { sizes.append((minW, minH)) }
            break
        }
        if sizes.isEmpty {
            // No VIDIOC_ENUM_FRAMESIZES: the current size only.
            var format = v4l2_format()
            format.type = Self.captureType
            if case .success = Syscall.v4l2Ioctl(fd, slate_vidioc_g_fmt(), &format) {
                sizes.append((Int(format.fmt.pix.width), Int(format.fmt.pix.height)))
            }
        }
        return sizes
    }

    private func frameIntervals(_ pixelFormat: UInt32, width: Int, height: Int) throws(CameraError) -> FrameIntervals {
        var list: [Fraction] = []
        var index: UInt32 = 0
        while true {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = pixelFormat
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            let listed = Syscall.v4l2Ioctl(fd, slate_vidioc_enum_frameintervals(), &interval)
            if case .failure(.invalidArgument) = listed { break }
            if case .failure(.inappropriateIOCTLForDevice) = listed { break }
            try listed.camera("VIDIOC_ENUM_FRAMEINTERVALS", on: path, to: "list frame intervals")
            index += 1
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                list.append(Self.fraction(interval.discrete))
                continue
            }
            let range = interval.stepwise
            let continuous = interval.type == V4L2_FRMIVAL_TYPE_CONTINUOUS.rawValue
            return .stepwise(
                min: Self.fraction(range.min), max: Self.fraction(range.max),
                step: continuous ? Fraction(0, 1) : Self.fraction(range.step))
        }
        if list.isEmpty, let current = currentInterval() { list.append(current) }
        return .discrete(list)
    }

    /// The interval the device runs at now (`VIDIOC_G_PARM`), if it says.
    public func currentInterval() -> Fraction? {
        checkOwner()
        var parm = v4l2_streamparm()
        parm.type = Self.captureType
        guard case .success = Syscall.v4l2Ioctl(fd, slate_vidioc_g_parm(), &parm) else { return nil }
        let value = Self.fraction(parm.parm.capture.timeperframe)
        return value.numerator > 0 && value.denominator > 0 ? value : nil
    }

    // MARK: Configuring and streaming

    /// Sets the pixel format and size (`VIDIOC_S_FMT`) and the frame interval (`VIDIOC_S_PARM`),
    /// and returns what the driver actually set: drivers adjust both.
    @discardableResult
    public func configure(mode: CameraMode, interval: Fraction) throws(CameraError) -> (
        mode: CameraMode, interval: Fraction
    ) {
        checkOwner()
        guard !isStreaming else {
            throw .state(path: path, operation: "configure the format", reason: "the camera is streaming")
        }
        var format = v4l2_format()
        format.type = Self.captureType
        format.fmt.pix.width = UInt32(mode.width)
        format.fmt.pix.height = UInt32(mode.height)
        format.fmt.pix.pixelformat = mode.pixelFormat.rawValue
        format.fmt.pix.field = V4L2_FIELD_ANY.rawValue
        try Syscall.v4l2Ioctl(fd, slate_vidioc_s_fmt(), &format).camera(
            "VIDIOC_S_FMT", on: path, to: "set the format \(mode.description)")
        bytesPerLine = Int(format.fmt.pix.bytesperline)
        frameBytes = Int(format.fmt.pix.sizeimage)
        color = ColorTags(
            v4l2Colorspace: format.fmt.pix.colorspace, encoding: format.fmt.pix.ycbcr_enc,
            quantization: format.fmt.pix.quantization, transfer: format.fmt.pix.xfer_func,
            isRGB: FourCC(rawValue: format.fmt.pix.pixelformat).isRGB)
        var actual = mode
        actual.width = Int(format.fmt.pix.width)
        actual.height = Int(format.fmt.pix.height)
        actual.pixelFormat = FourCC(rawValue: format.fmt.pix.pixelformat)
        if actual != mode {
            actual.intervals = try frameIntervals(
                actual.pixelFormat.rawValue, width: actual.width, height: actual.height)
        }

        var parm = v4l2_streamparm()
        parm.type = Self.captureType
        parm.parm.capture.timeperframe = v4l2_fract(
            numerator: UInt32(clamping: interval.numerator), denominator: UInt32(clamping: interval.denominator))
        switch Syscall.v4l2Ioctl(fd, slate_vidioc_s_parm(), &parm) {
        case .success: break
        case .failure(.inappropriateIOCTLForDevice), .failure(.invalidArgument):
            // A driver without VIDIOC_S_PARM runs at its own rate.
            return (actual, currentInterval() ?? interval)
        case .failure(let errno):
            throw .system("set the frame interval \(interval)", "VIDIOC_S_PARM", path: path, errno)
        }
        let set = Self.fraction(parm.parm.capture.timeperframe)
        return (actual, set.numerator > 0 && set.denominator > 0 ? set : currentInterval() ?? interval)
    }

    /// Requests mmap buffers (`VIDIOC_REQBUFS`, at least 4; the driver may give another count),
    /// maps and queues them all, and starts streaming (`VIDIOC_STREAMON`).
    public func start(bufferCount: Int = 4) throws(CameraError) {
        checkOwner()
        guard !isStreaming else { return }
        var request = v4l2_requestbuffers()
        request.count = UInt32(max(4, bufferCount))
        request.type = Self.captureType
        request.memory = Self.mmapMemory
        try Syscall.v4l2Ioctl(fd, slate_vidioc_reqbufs(), &request).camera(
            "VIDIOC_REQBUFS", on: path, to: "request \(request.count) buffers")
        guard request.count > 0 else {
            throw .state(path: path, operation: "request buffers (VIDIOC_REQBUFS)", reason: "the driver gave none")
        }
        do throws(CameraError) {
            for index in 0..<request.count {
                var buffer = Self.mmapBuffer(index)
                try Syscall.v4l2Ioctl(fd, slate_vidioc_querybuf(), &buffer).camera(
                    "VIDIOC_QUERYBUF", on: path, to: "query buffer \(index)")
                buffers.append(
                    try Syscall.v4l2Map(fd, length: Int(buffer.length), offset: Int64(buffer.m.offset)).camera(
                        "v4l2_mmap", on: path, to: "map buffer \(index)"))
            }
            for index in buffers.indices { try queue(UInt32(index)) }
            var type = Int32(Self.captureType)
            try Syscall.v4l2Ioctl(fd, slate_vidioc_streamon(), &type).camera("VIDIOC_STREAMON", on: path, to: "start streaming")
        } catch {
            releaseBuffers()
            throw error
        }
        isStreaming = true
        framesCaptured = 0
        sequence = FrameSequence()
    }

    /// How many buffers the driver gave (after `start()`).
    public var bufferCount: Int { buffers.count }

    /// A buffer descriptor for mmap capture buffer `index` (QUERYBUF, QBUF; DQBUF fills the index in).
    private static func mmapBuffer(_ index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = captureType
        buffer.memory = mmapMemory
        return buffer
    }

    private func queue(_ index: UInt32) throws(CameraError) {
        var buffer = Self.mmapBuffer(index)
        try Syscall.v4l2Ioctl(fd, slate_vidioc_qbuf(), &buffer).camera("VIDIOC_QBUF", on: path, to: "queue buffer \(index)")
    }

    /// Waits up to `milliseconds` for a frame (poll). True when one is ready, or when the
    /// device reports an error (the next `nextFrame()` says which).
    public func waitForFrame(milliseconds: Int32) throws(CameraError) -> Bool {
        checkOwner()
        return try Syscall.pollInput(fd, timeout: milliseconds).camera("poll", on: path, to: "wait for a frame")
    }

    /// What a wait for a frame or mail brought.
    public enum Wait {
        /// A frame is ready, or the device reports an error (the next `nextFrame()` says which).
        case frame
        /// Control changes are ready to dequeue (`controlChanges()`); a frame may be ready too.
        case controls
        /// `mail` became readable first.
        case mail
        /// A signal interrupted the wait.
        case timedOut
    }

    /// Waits for a frame, for control changes (after `subscribeControlEvents()`)
    /// or for `mail` (a worker's mailbox) to become readable. Mail comes first,
    /// then an error (`nextFrame()` says which; a device gone also signals
    /// control changes), then control changes: a frame stays queued in the driver meanwhile.
    public func waitForFrame(orMail mail: FileDescriptor) throws(CameraError) -> Wait {
        checkOwner()
        let ready = try Syscall.pollEvents([(mail, .input), (fd, [.input, .priority])], timeout: -1).camera(
            "poll", on: path, to: "wait for a frame")
        if !ready[0].isEmpty { return .mail }
        if !ready[1].isDisjoint(with: [.error, .hangUp]) { return .frame }
        if ready[1].contains(.priority) { return .controls }
        return ready[1].isEmpty ? .timedOut : .frame
    }

    /// Dequeues a frame without blocking (`VIDIOC_DQBUF`): nil when none is ready. Copies its
    /// bytes, requeues the buffer and counts frames dropped since the last one (`sequence` gaps).
    /// A device that went away throws `CameraError.system` with ENODEV (`isDeviceGone`).
    public func nextFrame() throws(CameraError) -> CapturedFrame? {
        try withNextFrame { bytes, info in CapturedFrame(bytes: [UInt8](bytes), info: info) }
    }

    /// `nextFrame()` without the copy: `body` reads the frame in the driver's buffer, which is
    /// requeued when `body` returns (the bytes must not escape it).
    public func withNextFrame<Result>(_ body: (UnsafeRawBufferPointer, FrameInfo) -> Result) throws(CameraError)
        -> Result?
    {
        checkOwner()
        guard isStreaming else {
            throw .state(path: path, operation: "dequeue a frame", reason: "the camera is not streaming")
        }
        // Dequeue only when poll says a frame (or an error) is there: libv4l2 prints an error
        // for every VIDIOC_DQBUF that fails, EAGAIN included.
        guard case .success(true) = Syscall.pollInput(fd, timeout: 0) else { return nil }
        var buffer = Self.mmapBuffer(0)
        let dequeued = Syscall.v4l2Ioctl(fd, slate_vidioc_dqbuf(), &buffer)
        if case .failure(.resourceTemporarilyUnavailable) = dequeued { return nil }
        try dequeued.camera("VIDIOC_DQBUF", on: path, to: "dequeue a frame")
        let index = Int(buffer.index)
        guard index < buffers.count else {
            throw .state(path: path, operation: "dequeue a frame", reason: "the driver returned unknown buffer \(index)")
        }
        let used = min(Int(buffer.bytesused == 0 ? buffer.length : buffer.bytesused), buffers[index].count)
        let monotonic =
            buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
            && (buffer.timestamp.tv_sec != 0 || buffer.timestamp.tv_usec != 0)
        let timestamp =
            monotonic
            ? Instant(seconds: Int64(buffer.timestamp.tv_sec), microseconds: Int64(buffer.timestamp.tv_usec))
            : MonotonicClock.now()
        sequence.record(buffer.sequence)
        framesCaptured += 1
        let info = FrameInfo(
            timestamp: timestamp, hasDriverTimestamp: monotonic, sequence: buffer.sequence, flags: buffer.flags)
        let result = body(UnsafeRawBufferPointer(rebasing: buffers[index][0..<used]), info)
        try queue(buffer.index)
        return result
    }

    /// Stops streaming (`VIDIOC_STREAMOFF`), unmaps the buffers and frees them. Safe to call twice,
    /// and after the device went away.
    public func stop() {
        checkOwner()
        if isStreaming {
            var type = Int32(Self.captureType)
            _ = Syscall.v4l2Ioctl(fd, slate_vidioc_streamoff(), &type)
            isStreaming = false
        }
        releaseBuffers()
    }

    private func releaseBuffers() {
        guard !buffers.isEmpty else { return }
        for buffer in buffers { Syscall.v4l2Unmap(buffer) }
        buffers = []
        var request = v4l2_requestbuffers()
        request.count = 0
        request.type = Self.captureType
        request.memory = Self.mmapMemory
        _ = Syscall.v4l2Ioctl(fd, slate_vidioc_reqbufs(), &request)
    }

    // MARK: Controls

    /// Every control (`VIDIOC_QUERY_EXT_CTRL`, or `VIDIOC_QUERYCTRL` on old drivers), without
    /// class headers and disabled ones, with current values and menu entries.
    public func controls() throws(CameraError) -> [CameraControl] {
        checkOwner()
        var controls: [CameraControl] = []
        let next = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
        var id = next
        while true {
            guard let control = try queryControl(id) else { break }
            id = control.id.rawValue | next
            if control.kind == .ctrlClass || control.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 { continue }
            controls.append(control)
        }
        return controls
    }

    /// One control by id; nil when the device has no such control.
    public func control(_ id: CameraControl.ID) throws(CameraError) -> CameraControl? {
        checkOwner()
        return try queryControl(id.rawValue)
    }

    private func queryControl(_ id: UInt32) throws(CameraError) -> CameraControl? {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        var control: CameraControl
        switch Syscall.v4l2Ioctl(fd, slate_vidioc_query_ext_ctrl(), &query) {
        case .success:
            control = CameraControl(
                id: .init(query.id), name: Self.string(query.name), kind: .init(v4l2: query.type),
                minimum: query.minimum, maximum: query.maximum, step: query.step, defaultValue: query.default_value,
                value: nil, flags: query.flags)
        case .failure(.invalidArgument):
            return nil
        case .failure(.inappropriateIOCTLForDevice):
            var old = v4l2_queryctrl()
            old.id = id
            let queried = Syscall.v4l2Ioctl(fd, slate_vidioc_queryctrl(), &old)
            if case .failure(.invalidArgument) = queried { return nil }
            try queried.camera("VIDIOC_QUERYCTRL", on: path, to: "query control \(CameraControl.ID(id))")
            control = CameraControl(
                id: .init(old.id), name: Self.string(old.name), kind: .init(v4l2: old.type),
                minimum: Int64(old.minimum), maximum: Int64(old.maximum), step: UInt64(old.step),
                defaultValue: Int64(old.default_value), value: nil, flags: old.flags)
        case .failure(let errno):
            throw .system("query control \(CameraControl.ID(id))", "VIDIOC_QUERY_EXT_CTRL", path: path, errno)
        }
        if control.kind.hasValue && control.flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) == 0 {
            if case .success(let value) = Syscall.v4l2GetControl(fd, control.id.rawValue, wide: control.kind == .integer64) {
                // A bitmask is a u32 that came back through the s32 field.
                control.value = control.kind == .bitmask ? value & 0xFFFF_FFFF : value
            }
        }
        if control.kind == .menu || control.kind == .integerMenu, control.maximum - control.minimum < 256 {
            for index in control.minimum...max(control.minimum, control.maximum) {
                guard case .success(let entry) = Syscall.v4l2QueryMenu(fd, control.id.rawValue, index: UInt32(index)) else {
                    continue
                }
                control.menu.append((index, control.kind == .menu ? entry.name : "\(entry.value)"))
            }
        }
        return control
    }

    /// Sets a control (`VIDIOC_S_EXT_CTRLS`) and returns the value the driver kept (drivers clamp).
    @discardableResult
    public func set(_ id: CameraControl.ID, _ value: Int64) throws(CameraError) -> Int64 {
        checkOwner()
        guard let control = try queryControl(id.rawValue), control.id == id else {
            throw .state(path: path, operation: "set control \(id)", reason: "the camera has no such control")
        }
        let wide = control.kind == .integer64
        try Syscall.v4l2SetControl(fd, id.rawValue, wide: wide, value).camera(
            "VIDIOC_S_EXT_CTRLS", on: path, to: "set control '\(control.name)' to \(value)")
        let actual = (try? Syscall.v4l2GetControl(fd, id.rawValue, wide: wide).get()) ?? value
        return control.kind == .bitmask ? actual & 0xFFFF_FFFF : actual
    }

    // MARK: Helpers

    private static func fraction(_ value: v4l2_fract) -> Fraction {
        Fraction(Int64(value.numerator), Int64(value.denominator))
    }

    /// A fixed-size C string field (a tuple of bytes) as a String.
    private static func string<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension Result where Failure == Errno {
    /// The value, or the camera's failure: what Slate was doing (`action`) when
    /// the call `operation` on the device at `path` failed.
    func camera(_ operation: String, on path: String, to action: String) throws(CameraError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let errno): throw .system(action, operation, path: path, errno)
        }
    }
}
