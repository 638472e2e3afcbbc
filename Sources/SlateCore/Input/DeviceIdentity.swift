/// What is known about an input device when it is matched against a profile:
/// the kernel's identity (`EVIOCGNAME`, `EVIOCGID`, `EVIOCGPHYS`, `EVIOCGUNIQ`),
/// the event codes it supports, and its udev properties.
public struct DeviceIdentity: Hashable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var phys: String
    public var uniq: String
    /// Every event code the device can send, e.g. `KEY_VOLUMEDOWN`.
    public var codes: Set<EventCode>
    /// udev properties such as `ID_INPUT_KEY=1` (empty for most recordings).
    public var udev: [String: String]

    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        phys: String = "", uniq: String = "", codes: Set<EventCode> = [], udev: [String: String] = [:]
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.phys = phys
        self.uniq = uniq
        self.codes = codes
        self.udev = udev
    }
}
