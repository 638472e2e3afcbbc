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

    /// The group that may read `path`, and whether this user is listed in
    /// it (`/etc/group` or as their primary group) though this login does not
    /// have it yet. No group when the node's group cannot read it, or is root's.
    public static func group(of path: String) -> (name: String, listed: Bool)? {
        guard let status = try? Stat(FilePath(path)), status.groupID.rawValue != 0, status.mode.rawValue & 0o040 != 0,
            let entry = getgrgid(status.groupID.rawValue)
        else { return nil }
        let name = String(cString: entry.pointee.gr_name)
        let gid = status.groupID.rawValue
        let user = getpwuid(getuid())
        let userName = user.map { String(cString: $0.pointee.pw_name) }
        var listed = user?.pointee.pw_gid == gid
        var member = entry.pointee.gr_mem
        while let pointer = member?.pointee {
            if String(cString: pointer) == userName { listed = true }
            member = member?.successor()
        }
        return (name, listed)
    }
}
