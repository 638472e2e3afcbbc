import SlateSystem

/// /dev/uinput, where Slate makes the clone that passes a grabbed device's
/// other keys on; udev/70-slate.rules gives it to the slate-uinput group only.
public enum Uinput {
    public static let path = "/dev/uinput"

    /// Whether this user may open /dev/uinput for reading and writing (`access`).
    public static var isWritable: Bool { Syscall.mayReadAndWrite(path) }

    /// What a user does to get it.
    public static let advice =
        "join the slate-uinput group: sudo groupadd -r slate-uinput; sudo usermod -aG slate-uinput $USER; log in again (with udev/70-slate.rules installed)"
}
