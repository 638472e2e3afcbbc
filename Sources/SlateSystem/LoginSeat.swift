import Glibc
import SlateCore
import SystemPackage

/// What logind and the user database say of this process's user: whether a
/// seat is theirs, and who owns a device node.
public enum LoginSeat {
    /// logind's state of the first seat.
    static let seatFile = "/run/systemd/seats/seat0"

    /// This user's name, and whether seat0's active session is theirs (its
    /// `ACTIVE_UID` is this process's user).
    public static func access() -> DeviceAccess {
        let uid = getuid()
        let user = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "user \(uid)"
        let seat = (try? FileReading.text(atPath: seatFile, limit: 1 << 16)) ?? ""
        let active = seat.split(separator: "\n").contains { $0 == "ACTIVE_UID=\(uid)" }
        return DeviceAccess(user: user, hasSeat: active)
    }

    /// The name of the group owning `path` (nil when it cannot be read).
    public static func group(of path: String) -> String? {
        guard let status = try? Stat(FilePath(path)), let entry = getgrgid(status.groupID.rawValue) else { return nil }
        return String(cString: entry.pointee.gr_name)
    }
}
