import ArgumentParser
import SlateCore

/// `slate codes`: the event code names profiles can use.
struct Codes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List event code names (as libevdev spells them), e.g. for a profile's bind section.")

    @Argument(help: "Only names starting with this prefix, e.g. KEY_VOLUME or REL_.")
    var prefix = ""

    func run() {
        for type in [EventType.key, EventType.rel] {
            for code in 0...(EventCodes.maxCode(type: type) ?? 0) {
                guard let name = EventCodes.name(type: type, code: code), name.hasPrefix(prefix),
                    !name.hasSuffix("_MAX")
                else { continue }
                print("\(name) \(code)")
            }
        }
    }
}
