import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate check [FILE...]`: validates profiles.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate profiles; print every error as FILE:LINE:COLUMN: error: MESSAGE.",
        discussion: """
            With no file, checks the default profile (~/.config/slate/rig.yaml). Warnings (FILE:LINE:COLUMN: \
            warning: MESSAGE) name likely slips in a profile that loads, such as a vendor id written in decimal \
            that no device present has while one has its hex reading. Exits 2 when any file has an error, \
            0 otherwise.
            """)

    @Argument(help: "Profile files to check (default: ~/.config/slate/rig.yaml).")
    var files: [String] = []

    @Flag(help: "One JSON object per file: file, ok, inputs, diagnostics (each with line, column, severity, message).")
    var json = false

    func run() throws {
        let output = OutputStream()
        if files.isEmpty && !Syscall.isFile(UserPath.defaultProfile) {
            let message =
                "no file given and no profile at \(UserPath.defaultProfile): name the profiles to check, or write one with slate setup"
            if json {
                let diagnostic = Diagnostic(file: UserPath.defaultProfile, line: 1, column: 1, message: message)
                output.writeLine(
                    JSONLine.encode(
                        ProfileCheckLine(file: UserPath.defaultProfile, ok: false, inputs: nil, diagnostics: [diagnostic])))
                output.flush()
            } else {
                OutputStream.writeError("slate check: " + message)
            }
            throw Slate.badInput
        }
        let files = self.files.isEmpty ? [UserPath.defaultProfile] : self.files
        let present = Self.presentIDs()
        var failed = false
        for file in files {
            let line: ProfileCheckLine
            switch ProfileSource.load(file) {
            case .success(let profile):
                line = ProfileCheckLine(
                    file: file, ok: true, inputs: profile.inputs.count,
                    diagnostics: DecimalID.warnings(profile, present: present))
            case .failure(let failure):
                failed = true
                line = ProfileCheckLine(file: file, ok: false, inputs: nil, diagnostics: failure.diagnostics)
            }
            if json {
                output.writeLine(JSONLine.encode(line))
                continue
            }
            if let inputs = line.inputs { output.writeLine("\(file): ok (\(inputs) input\(inputs == 1 ? "" : "s"))") }
            output.flush()
            OutputStream.writeDiagnostics(line.diagnostics)
        }
        output.flush()
        if failed { throw Slate.badInput }
    }

    /// The vendor and product ids of the input devices present, as udev
    /// names them (none when udev cannot be read).
    static func presentIDs() -> [(vendor: UInt16, product: UInt16)] {
        guard let udev = try? Udev() else { return [] }
        return udev.inputNodes().map(Devices.udevIdentity).map { ($0.vendor, $0.product) }
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
            OutputStream.writeDiagnostics(failure.diagnostics)
            throw Slate.badInput
        }
    }
}
