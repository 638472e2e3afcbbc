/// Which of the two ways gives this user a device it cannot open. On a
/// desktop, logind gives the seat's user every device udev tags `uaccess`,
/// which Slate's udev rules do for the devices they know; on a headless box,
/// over SSH or under a system service no seat is the user's, so that gives
/// nobody the device, and the device's group (input, video, audio) does.
public struct DeviceAccess: Hashable, Sendable {
    /// The user Slate runs as.
    public var user: String
    /// Whether a seat's active session is this user's (logind's `ACTIVE_UID`).
    public var hasSeat: Bool

    public init(user: String, hasSeat: Bool) {
        self.user = user
        self.hasSeat = hasSeat
    }

    /// What gives the user a device whose group may read it (`group`; nil:
    /// none may, or root's), which Slate's udev rules tag (`taggedBySlate`) or
    /// not. `listed`: the user is in that group already, but not in this login.
    public func advice(group: String?, listed: Bool = false, taggedBySlate: Bool) -> String {
        let join: String
        switch (group, listed) {
        case (let group?, true): join = "\(user) is in the \(group) group, but this login is not: log in again"
        case (let group?, false): join = "sudo usermod -aG \(group) \(user), then log in again"
        case (nil, _): join = "no group may read it: a udev rule must give it to one (input, video or audio)"
        }
        guard hasSeat else {
            return "no seat is \(user)'s here (a box with no one logged in at it, SSH or a system service), so "
                + "udev's uaccess gives the device to nobody: \(join) (slate@\(user).service has the groups already)"
        }
        guard taggedBySlate else {
            return "the seat's user gets a device udev tags uaccess, and Slate's udev rules do not know this one: "
                + "sudo slate setup --udev writes a rule for it (or, without the seat: \(join))"
        }
        return "Slate's udev rules tag it for the seat's user, but the seat has not given it to \(user) yet: "
            + "unplug it and plug it in again (or, without the seat: \(join))"
    }
}
