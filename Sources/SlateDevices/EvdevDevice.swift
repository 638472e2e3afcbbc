import CEvdev
import SlateCore
import SlateSystem
import SystemPackage

/// An open evdev node read through libevdev, with timestamps on CLOCK_MONOTONIC.
/// Frees the libevdev handle, any uinput clone, and closes the node on deinit.
public final class EvdevDevice {
    public let path: String
    public let identity: DeviceIdentity
    public let fd: FileDescriptor
    private let handle: OpaquePointer
    private var clone: OpaquePointer?
    /// The node opened for writing, for its LEDs; opened when one is first set.
    private var ledWriter: FileDescriptor?
    public private(set) var isGrabbed = false

    /// Opens `path` read-only and non-blocking (`libevdev_new_from_fd`).
    public init(path: String) throws(OperationError) {
        let fd = try errnoResult {
            try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
        }.value("open", on: path, to: "open")
        var handle: OpaquePointer?
        let status = libevdev_new_from_fd(fd.rawValue, &handle)
        guard status == 0, let handle else {
            try? fd.close()
            throw OperationError(
                "read the device identity",
                cause: SystemCallError("libevdev_new_from_fd", subject: path, errno: Errno(rawValue: -status)))
        }
        _ = libevdev_set_clock_id(handle, Syscall.monotonicClockID)
        self.path = path
        self.fd = fd
        self.handle = handle
        self.identity = Self.identity(of: handle)
    }

    deinit {
        if let clone { libevdev_uinput_destroy(clone) }
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
        try? fd.close()
        try? ledWriter?.close()
    }

    private static func identity(of handle: OpaquePointer) -> DeviceIdentity {
        let string = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        var codes: Set<EventCode> = []
        for type in UInt16(1)...UInt16(0x1f) where libevdev_has_event_type(handle, UInt32(type)) != 0 {
            guard let max = EventCodes.maxCode(type: type) else { continue }
            for code in 0...max where libevdev_has_event_code(handle, UInt32(type), UInt32(code)) != 0 {
                codes.insert(EventCode(type: type, code: code))
            }
        }
        return DeviceIdentity(
            name: string(libevdev_get_name(handle)), bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)),
            phys: string(libevdev_get_phys(handle)), uniq: string(libevdev_get_uniq(handle)), codes: codes)
    }

    /// Absolute axes and their ranges (`libevdev_get_abs_info`).
    public var axes: [EvemuWriter.AxisInfo] {
        identity.codes.filter { $0.type == EventType.abs }.compactMap { code in
            guard let info = libevdev_get_abs_info(handle, UInt32(code.code))?.pointee else { return nil }
            return EvemuWriter.AxisInfo(
                code: code.code, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                resolution: info.resolution)
        }
    }

    /// Input properties (`INPUT_PROP_*`) the device has.
    public var properties: [Int] {
        (0..<0x20).filter { libevdev_has_property(handle, UInt32($0)) != 0 }
    }

    /// What a read produced.
    public enum ReadResult {
        /// Nothing more to read now.
        case drained
        /// The device is gone (ENODEV) or failed; the error says why.
        case failed(OperationError)
    }

    /// Reads every pending event and passes it on; `resync` marks the state changes
    /// libevdev reports after SYN_DROPPED (read with LIBEVDEV_READ_FLAG_SYNC until -EAGAIN).
    public func readAvailable(_ body: (InputEvent, _ resync: Bool) -> Void) -> ReadResult {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(handle, flags, &event)
            switch status {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                body(Self.convert(event), flags == LIBEVDEV_READ_FLAG_SYNC.rawValue)
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    body(Self.convert(event), true)
                } else {
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
            case -Errno.resourceTemporarilyUnavailable.rawValue:
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            case -Errno.interrupted.rawValue:
                continue
            default:
                return .failed(
                    OperationError(
                        "read", cause: SystemCallError("libevdev_next_event", subject: path, errno: Errno(rawValue: -status))))
            }
        }
    }

    private static func convert(_ event: input_event) -> InputEvent {
        InputEvent(
            time: Instant(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
            type: event.type, code: event.code, value: event.value)
    }

    /// Whether any key of the device is down as of the last event read: libevdev's
    /// state, kept from the events it delivered. Asking the kernel (`EVIOCGKEY`)
    /// would flush the key events still queued for this descriptor, and lose them.
    public var hasKeyDown: Bool {
        identity.codes.contains { code in
            code.type == EventType.key && libevdev_get_event_value(handle, UInt32(code.type), UInt32(code.code)) != 0
        }
    }

    /// EVIOCGRAB: no other reader sees the device's events while grabbed.
    public func grab() throws(OperationError) {
        guard !isGrabbed else { return }
        let status = libevdev_grab(handle, LIBEVDEV_GRAB)
        guard status == 0 else {
            throw OperationError("grab", cause: SystemCallError("EVIOCGRAB", subject: path, errno: Errno(rawValue: -status)))
        }
        isGrabbed = true
    }

    public func ungrab() {
        guard isGrabbed else { return }
        _ = libevdev_grab(handle, LIBEVDEV_UNGRAB)
        isGrabbed = false
    }

    /// A uinput device with this device's identity and capabilities, which passes on
    /// the events Slate does not use while the device is grabbed.
    public func createClone() throws(OperationError) {
        guard clone == nil else { return }
        var device: OpaquePointer?
        let status = libevdev_uinput_create_from_device(handle, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &device)
        guard status == 0, let device else {
            throw OperationError(
                "create a uinput clone",
                cause: SystemCallError("libevdev_uinput_create_from_device", subject: path, errno: Errno(rawValue: -status)))
        }
        clone = device
    }

    public var hasClone: Bool { clone != nil }

    public func destroyClone() {
        if let clone { libevdev_uinput_destroy(clone) }
        clone = nil
    }

    /// The clone's event node, e.g. `/dev/input/event7`.
    public var clonePath: String? { clone.flatMap { libevdev_uinput_get_devnode($0) }.map { String(cString: $0) } }

    /// Writes one event to the clone (`libevdev_uinput_write_event`).
    public func passThrough(_ event: InputEvent) {
        guard let clone else { return }
        _ = libevdev_uinput_write_event(clone, UInt32(event.type), UInt32(event.code), event.value)
    }

    /// Whether the device has the LED `code` (`EV_LED`).
    public func hasLED(_ code: UInt16) -> Bool { identity.codes.contains(EventCode(type: UInt16(EV_LED), code: code)) }

    /// Lights or darkens its LED `code`: `EV_LED` then `SYN_REPORT` written to
    /// the node, which is opened for writing the first time (the read side
    /// stays read-only).
    public func setLED(_ code: UInt16, on: Bool) throws(OperationError) {
        if ledWriter == nil {
            ledWriter = try errnoResult {
                try FileDescriptor.open(FilePath(path), .writeOnly, options: [.nonBlocking, .closeOnExec])
            }.value("open", on: path, to: "open for its LEDs")
        }
        guard let ledWriter else { return }
        var events = [input_event(), input_event()]
        events[0].type = UInt16(EV_LED)
        events[0].code = code
        events[0].value = on ? 1 : 0
        events[1].type = UInt16(EV_SYN)
        events[1].code = UInt16(SYN_REPORT)
        let written = try errnoResult {
            try events.withUnsafeBytes { try ledWriter.write($0) }
        }.value("write", on: path, to: "set its LED")
        guard written == MemoryLayout<input_event>.stride * 2 else {
            throw OperationError("set its LED", cause: SystemCallError("write", subject: path, errno: .ioError))
        }
    }
}
