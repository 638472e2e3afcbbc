import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate check FILE...`: validates profiles.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate profiles; print every error as FILE:LINE:COLUMN: error: MESSAGE.",
        discussion: "Exits 2 when any file has an error, 0 otherwise.")

    @Argument(help: "Profile files to check.")
    var files: [String]

    func run() throws {
        let output = OutputStream()
        var failed = false
        for file in files {
            switch ProfileSource.load(file) {
            case .success(let profile):
                output.writeLine("\(file): ok (\(profile.inputs.count) input\(profile.inputs.count == 1 ? "" : "s"))")
            case .failure(let failure):
                failed = true
                output.flush()
                failure.lines.forEach(OutputStream.writeError)
            }
        }
        output.flush()
        if failed { throw Slate.badInput }
    }
}

extension ProfileSource {
    /// The profile, or its errors printed and exit status 2.
    static func loadOrExit(_ path: String) throws -> Profile {
        switch load(path) {
        case .success(let profile): return profile
        case .failure(let failure):
            failure.lines.forEach(OutputStream.writeError)
            throw Slate.badInput
        }
    }
}
