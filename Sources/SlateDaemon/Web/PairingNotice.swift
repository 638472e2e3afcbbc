import Logging
import SlateCore
import SlateDevices
import SlateSystem
import SlateWeb
import SystemPackage

/// What `slate run` and `slate pair` say to pair a phone: a new one-time code,
/// where to enter it, and, on a terminal, a QR code of the pairing link
/// (the first address's `/pair#CODE`, which pairs the browser that opens it).
public struct PairingNotice {
    public let store: PairingStore
    /// The page's addresses, the first one in the QR code.
    public let links: [String]

    public init(store: PairingStore, links: [String]) {
        self.store = store
        self.links = links
    }

    /// Opens a code; the line that tells it, and the link the QR code holds.
    public func open() throws(PairingStore.Failure) -> (line: String, link: String?) {
        let now = WallClock.microseconds() / 1_000_000
        let code = try store.issueCode(now: now)
        let link = links.first.map { $0 + "pair#" + code.code }
        let minutes = code.minutesLeft(now: now)
        let place = links.first.map { "open \($0)pair and " } ?? ""
        return (
            "to pair a phone or tablet, \(place)enter the code \(code.code) (good for \(minutes) min; "
                + "\(PairingDesk.tries) wrong tries void it; slate pair opens another)",
            link
        )
    }

    /// The QR code of `link` drawn for `fd`, when it is a terminal; none elsewhere.
    public static func qrLines(_ link: String?, for fd: FileDescriptor) -> [String] {
        guard let link, Terminal.isTerminal(fd), let code = QRCode(link) else { return [] }
        return code.lines(colored: Terminal.takesColor(fd))
    }

    /// Opens a code for `slate run` and logs it, with the QR code unless the
    /// page is on loopback, where no phone reaches it, when standard error is
    /// a terminal. Elsewhere (a service, its journal) no code is opened: it
    /// says to run `slate pair`, so no code waits in a log.
    func announce(loopback: Bool, log: Logger) {
        do {
            try store.saveLinks(links)
            guard Terminal.isTerminal(.standardError) else {
                log.notice("to pair a phone or tablet, run slate pair: it prints a one-time code to enter on the page")
                return
            }
            let (line, link) = try open()
            log.notice("\(line)")
            guard !loopback else { return }
            let lines = Self.qrLines(link, for: .standardError)
            if !lines.isEmpty { OutputStream.writeError((lines + ["  " + (link ?? "")]).joined(separator: "\n")) }
        } catch {
            log.warning("no pairing code could be opened: \(error)")
        }
    }
}
