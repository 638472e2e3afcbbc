import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate codes`: the event code names profiles can use.
struct Codes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List event code names (as libevdev spells them, and their aliases), e.g. for a profile's bind section.",
        discussion: """
            Each line is a name, its code in decimal and hexadecimal, and its aliases (or the name \
            it is an alias of). Exits 1 when no name starts with the prefix.
            """)

    @Argument(help: "Only names starting with this prefix, in any case, e.g. KEY_VOLUME, rel_ or BTN_MISC.")
    var prefix = ""

    func run() throws {
        let names = EventCodes.names(startingWith: prefix)
        guard !names.isEmpty else {
            var message = "slate codes: no event code name starts with '\(prefix.uppercased())'"
            let containing = EventCodes.names(containing: prefix)
            if !containing.isEmpty {
                message +=
                    "; names containing it: " + containing.prefix(12).map(\.name).joined(separator: ", ")
                    + (containing.count > 12 ? ", …" : "")
            }
            OutputStream.writeError(message)
            throw ExitCode.failure
        }
        for entry in names {
            var line = "\(entry.name) \(entry.code.code) 0x" + String(entry.code.code, radix: 16)
            if let original = entry.aliasOf {
                line += " (alias of \(original))"
            } else if !entry.aliases.isEmpty {
                line += " (alias: " + entry.aliases.joined(separator: ", ") + ")"
            }
            print(line)
        }
    }
}
