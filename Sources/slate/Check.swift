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
    /// The profile at `path`, or, given none, the default one (saying which
    /// file is used, or that there is none and where it was looked for).
    static func loadOrExit(given path: String?) throws -> (path: String, profile: Profile) {
        guard let path else {
            let path = UserPath.defaultProfile
            guard Syscall.isFile(path) else {
                OutputStream.writeError(
                    "slate: no --profile given and no profile at \(path): pass --profile FILE, or copy one of the shipped profiles there (share/slate/profiles where Slate is installed, /usr/share/slate/profiles from the package)"
                )
                throw Slate.badInput
            }
            OutputStream.writeError("slate: using the profile \(path)")
            return (path, try loadOrExit(path))
        }
        return (path, try loadOrExit(path))
    }

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
