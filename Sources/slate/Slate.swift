import ArgumentParser

@main
struct Slate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Physical buttons to camera capture events.")
}
