import CUdev
import SlateSystem
import SystemPackage

/// An input event node as udev knows it.
public struct UdevInputNode: Sendable {
    /// `/dev/input/eventN`.
    public var devnode: String
    public var syspath: String
    /// The node's udev properties (ID_INPUT_KEY, ID_BUS, ID_VENDOR_ID, ID_MODEL_ID, ...)
    /// with the parent input device's NAME and PHYS.
    public var properties: [String: String]
    /// Nodes of one physical device share this key: the parent USB device, else
    /// the phys path before its `/inputN` part, else the node itself.
    public var group: String
}

/// libudev: enumerates input event nodes and reports them appearing and going away.
/// A hidraw node and the ids of the HID device behind it.
public struct UdevHIDNode: Sendable {
    public var devnode: String
    public var vendor: UInt16
    public var product: UInt16
    public var name: String
}

public final class Udev {
    private let udev: OpaquePointer

    public init() throws(OperationError) {
        guard let udev = udev_new() else {
            throw OperationError("create a libudev context", cause: SystemCallError("udev_new", errno: Syscall.lastError))
        }
        self.udev = udev
    }

    deinit { udev_unref(udev) }

    /// Every `/dev/input/event*` node, in sysfs order.
    public func inputNodes() -> [UdevInputNode] {
        devices(subsystem: "input", sysname: "event*") { Self.node($0) }
    }

    /// Every `/dev/hidraw*` node with its HID device's ids (`HID_ID`) and name.
    public func hidNodes() -> [UdevHIDNode] {
        devices(subsystem: "hidraw") { device in
            guard let devnode = udev_device_get_devnode(device).map({ String(cString: $0) }),
                let hid = udev_device_get_parent_with_subsystem_devtype(device, "hid", nil)
            else { return nil }
            let value = { (key: String) in udev_device_get_property_value(hid, key).map { String(cString: $0) } }
            let ids = (value("HID_ID") ?? "").split(separator: ":").compactMap { UInt32($0, radix: 16) }
            guard ids.count == 3 else { return nil }
            return UdevHIDNode(
                devnode: devnode, vendor: UInt16(truncatingIfNeeded: ids[1]), product: UInt16(truncatingIfNeeded: ids[2]),
                name: value("HID_NAME") ?? "")
        }
    }

    /// What `read` makes of each device of `subsystem` (and `sysname`), in sysfs order.
    private func devices<Node>(subsystem: String, sysname: String? = nil, _ read: (OpaquePointer) -> Node?) -> [Node] {
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        if let sysname { udev_enumerate_add_match_sysname(enumerate, sysname) }
        udev_enumerate_scan_devices(enumerate)
        var nodes: [Node] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let device = udev_device_new_from_syspath(udev, udev_list_entry_get_name(current)) {
                if let node = read(device) { nodes.append(node) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return nodes
    }

    static func node(_ device: OpaquePointer) -> UdevInputNode? {
        guard let devnode = udev_device_get_devnode(device).map({ String(cString: $0) }),
            devnode.hasPrefix("/dev/input/event")
        else { return nil }
        var properties = Self.properties(device)
        let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
        if let parent {
            for key in ["NAME", "PHYS", "UNIQ", "PRODUCT"] where properties[key] == nil {
                if let value = udev_device_get_property_value(parent, key) {
                    properties[key] = String(cString: value).trimmingQuotes
                }
            }
        }
        let syspath = String(cString: udev_device_get_syspath(device))
        var group = syspath
        if let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device") {
            group = String(cString: udev_device_get_syspath(usb))
        } else if let phys = properties["PHYS"], let slash = phys.lastIndex(of: "/") {
            group = "phys:" + phys[..<slash]
        }
        return UdevInputNode(devnode: devnode, syspath: syspath, properties: properties, group: group)
    }

    private static func properties(_ device: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            let name = String(cString: udev_list_entry_get_name(current))
            result[name] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            entry = udev_list_entry_get_next(current)
        }
        return result
    }

    /// Hotplug events for input nodes. Listens to udevd's processed events when
    /// udevd runs, else to the kernel's (the node may not be readable yet then).
    public final class DeviceWatch {
        public enum Action: Equatable { case add, remove, change }

        private let monitor: OpaquePointer
        /// The udev monitor's netlink socket, to watch; libudev owns it.
        public let fd: FileDescriptor

        public init(_ udev: Udev) throws(OperationError) {
            let source = Syscall.exists("/run/udev/control") ? "udev" : "kernel"
            let listen = "listen for input devices from the \(source)"
            guard let monitor = udev_monitor_new_from_netlink(udev.udev, source) else {
                throw OperationError(listen, cause: SystemCallError("udev_monitor_new_from_netlink", errno: Syscall.lastError))
            }
            udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
            let status = udev_monitor_enable_receiving(monitor)
            guard status >= 0 else {
                udev_monitor_unref(monitor)
                throw OperationError(
                    listen, cause: SystemCallError("udev_monitor_enable_receiving", errno: Errno(rawValue: -status)))
            }
            self.monitor = monitor
            self.fd = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
        }

        deinit { udev_monitor_unref(monitor) }

        /// The next pending event for an event node, if any (non-blocking).
        public func receive() -> (Action, UdevInputNode)? {
            while let device = udev_monitor_receive_device(monitor) {
                defer { udev_device_unref(device) }
                let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
                guard let node = Udev.node(device) else { continue }
                switch action {
                case "add": return (.add, node)
                case "remove": return (.remove, node)
                case "change": return (.change, node)
                default: continue
                }
            }
            return nil
        }
    }
}

extension String {
    /// `"Foo"` without its quotes, as udev stores NAME and PHYS.
    var trimmingQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
