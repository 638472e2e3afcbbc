/// The two Bluetooth addresses an input node of a Bluetooth device can carry:
/// the device's own (a headset's, in `uniq`, when the driver sets it; BlueZ's
/// AVRCP node leaves it empty) and the adapter's that it is connected
/// through (in `phys`, as BlueZ's AVRCP and HID nodes set it).
public struct BluetoothAddresses: Hashable, Sendable {
    public var device: String?
    public var adapter: String?

    /// The addresses of `identity`; nil for a node not on the Bluetooth bus.
    public init?(_ identity: DeviceIdentity) {
        guard identity.bus == Bus.bluetooth else { return nil }
        device = Self.address(in: identity.uniq)
        adapter = Self.address(in: identity.phys)
    }

    /// `AA:BB:CC:DD:EE:FF`, upper case, from text that starts with an address
    /// in either case (a HID node's phys adds a channel); nil for anything else.
    static func address(in text: String) -> String? {
        let candidate = text.prefix(17)
        let parts = candidate.split(separator: ":", omittingEmptySubsequences: false)
        guard candidate.count == 17, parts.count == 6,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) })
        else { return nil }
        return candidate.uppercased()
    }

    /// `device 00:AA:01:01:00:24 (uniq), adapter 00:AA:01:00:00:23 (phys)`, or what is unknown.
    public var summary: String {
        (device.map { "device \($0) (uniq)" } ?? "device address not given (empty uniq)") + ", "
            + (adapter.map { "adapter \($0) (phys)" } ?? "adapter not given (phys)")
    }
}
