/// Bus types (`BUS_*` in `linux/input.h`) and the names profiles use for them.
public enum Bus {
    public static let names: [(name: String, value: UInt16)] = [
        ("pci", 0x01), ("isapnp", 0x02), ("usb", 0x03), ("hil", 0x04), ("bluetooth", 0x05),
        ("virtual", 0x06), ("isa", 0x10), ("i8042", 0x11), ("xtkbd", 0x12), ("rs232", 0x13),
        ("gameport", 0x14), ("parport", 0x15), ("amiga", 0x16), ("adb", 0x17), ("i2c", 0x18),
        ("host", 0x19), ("gsc", 0x1A), ("atari", 0x1B), ("spi", 0x1C), ("rmi", 0x1D),
        ("cec", 0x1E), ("intel-ishtp", 0x1F), ("amd-sfh", 0x20),
    ]

    public static let usb: UInt16 = 0x03
    public static let bluetooth: UInt16 = 0x05

    /// The bus number for a profile name such as `usb` or `bluetooth`.
    public static func value(named name: String) -> UInt16? {
        names.first { $0.name == name }?.value
    }

    /// The profile name of a bus number, or its hex form when it has none.
    public static func name(of value: UInt16) -> String {
        names.first { $0.value == value }?.name ?? "0x" + String(value, radix: 16)
    }
}
