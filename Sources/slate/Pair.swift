import ArgumentParser
import SlateCore
import SlateDaemon
import SlateSystem
import SlateWeb
import SystemPackage

/// `slate pair`: a one-time code for a phone, or the browsers paired.
struct Pair: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pair a phone or tablet with the rig's page; list or revoke the browsers paired.",
        discussion: """
            Without an option, opens a new pairing code: six digits, good for 5 minutes \
            and spent by the first browser that sends it (5 wrong codes make it void). \
            Open the rig's page on the phone (its addresses are printed, and a QR code \
            of the first on a terminal) and enter the code: the browser gets a cookie \
            that lets it read and act for a year, until it is revoked. The code and the \
            browsers are kept in Slate's state folder (~/.local/state/slate), readable \
            by you only; the running slate run reads them there, and refuses a revoked \
            browser from its next request.
            """)

    @Flag(help: "List the browsers paired: id, name, when and from where.")
    var list = false

    @Option(help: "Revoke the browser with this id (or the start of one id).")
    var revoke: String?

    @Flag(help: "With --list, one JSON object per browser.")
    var json = false

    func run() throws {
        let store: PairingStore
        do {
            store = try PairingStore(folder: UserPath.state)
        } catch {
            OutputStream.writeError("slate pair: \(error)")
            throw ExitCode.failure
        }
        let output = OutputStream()
        defer { output.flush() }
        do {
            if list {
                let browsers = try store.browsers().browsers
                if json {
                    browsers.map { JSONLine.encode(PairedBrowserLine($0)) }.forEach(output.writeLine)
                } else if browsers.isEmpty {
                    output.writeLine("no browser is paired: slate pair opens a code for one")
                } else {
                    for browser in browsers {
                        let when = Terminal.localTime(browser.paired, format: "%Y-%m-%d %H:%M")
                        output.writeLine("\(browser.id)  \(browser.name)  paired \(when) from \(browser.address)")
                    }
                }
            } else if let revoke {
                guard let revoked = try store.revoke(revoke) else {
                    OutputStream.writeError(
                        "slate pair: no paired browser, or more than one, has the id \(revoke) (slate pair --list)")
                    throw ExitCode.failure
                }
                output.writeLine("revoked \(revoked.id) (\(revoked.name)): its next request is refused")
            } else {
                let links = store.links()
                let (line, link) = try PairingNotice(store: store, links: links).open()
                output.writeLine(line)
                if links.isEmpty { output.writeLine("(no slate run with a page has said where it is: start one)") }
                let lines = PairingNotice.qrLines(link, for: .standardOutput)
                if !lines.isEmpty { (lines + ["  " + (link ?? "")]).forEach(output.writeLine) }
                for other in links.dropFirst() { output.writeLine("  also \(other)") }
            }
        } catch let error as PairingStore.Failure {
            OutputStream.writeError("slate pair: \(error)")
            throw ExitCode.failure
        }
    }
}

/// A paired browser as `slate pair --list --json` writes it: without its digest.
private struct PairedBrowserLine: Encodable {
    var id: String
    var name: String
    var paired: Int64
    var address: String

    init(_ browser: PairedBrowser) {
        (id, name, paired, address) = (browser.id, browser.name, browser.paired, browser.address)
    }
}
