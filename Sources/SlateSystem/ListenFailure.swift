import Glibc

/// Why a server could not listen on an address, as a rig operator reads it
/// (not the socket call's name): from the errno of `bind`.
public enum ListenFailure {
    public static func reason(errno code: Int32, port: Int) -> String {
        switch code {
        case EADDRINUSE: "port \(port) is taken: another program (another slate run?) listens on it"
        case EACCES: "ports below 1024 need privileges Slate does not take: choose a port of 1024 or more"
        case EADDRNOTAVAIL: "no network interface of this machine has that address"
        default: String(cString: strerror(code))
        }
    }
}
