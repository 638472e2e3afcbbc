import ArgumentParser
import SlateCore
import SlateMedia
import SlateSystem

extension Takes {
    /// `slate takes trash`: the deleted takes that can still be restored.
    struct Trash: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the takes in the trash, which slate takes restore brings back.",
            discussion: """
                A deleted take waits in the work folder's trash folder for the profile's \
                camera.trash-hours (24 by default), then is deleted for good. Each line gives \
                its file, its length, when it was deleted, and when it goes for good.
                """)

        @OptionGroup var folder: FolderOptions

        @Flag(help: "One JSON object per line.")
        var json = false

        func run() throws {
            let folder = try self.folder.resolve("takes trash")
            let trashed = TakeTrash.contents(of: try Takes.read(folder))
            let output = OutputStream()
            defer { output.flush() }
            for take in trashed {
                let line = TrashLine(take: take, path: folder.location(of: take), hours: folder.trashHours)
                if json {
                    output.writeLine(JSONLine.encode(line))
                } else {
                    let seconds = Instant.formatSeconds(take.summary.duration.microseconds, decimals: 3)
                    output.writeLine(
                        "\(take.file)  \(seconds) s  deleted \(line.deleted)  for good \(line.expires)"
                            + (take.exported.map { "  (in \($0))" } ?? ""))
                }
            }
            if trashed.isEmpty && !json { output.writeLine("the trash of \(folder.path) is empty") }
        }
    }

    /// `slate takes restore ID`: a take back from the trash.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring a take back from the trash into the take list.",
            discussion: "The take keeps its place among the takes, by when it was recorded.")

        @Argument(help: "The take's file (as slate takes trash shows it) or its id; 'last' for the last deleted.")
        var take: String

        @OptionGroup var folder: FolderOptions

        func run() throws {
            let folder = try self.folder.resolve("takes restore")
            let (ledger, lock) = try Takes.open(folder, command: "restore")
            defer { withExtendedLifetime(lock) {} }
            let trashed = TakeTrash.contents(of: ledger.manifest)
            guard let chosen = take == "last" ? trashed.last : trashed.first(where: { $0.file == take || $0.id == take })
            else {
                OutputStream.writeError(
                    "slate takes restore: no take '\(take)' in the trash of \(folder.path) (slate takes trash lists it)")
                throw Slate.badInput
            }
            do {
                try folder.restore(chosen, from: ledger)
            } catch {
                OutputStream.writeError("slate takes restore: \(error)")
                throw ExitCode.failure
            }
            let number = (ledger.manifest.takes.filter { $0.trashed == nil }.firstIndex { $0.id == chosen.id } ?? 0) + 1
            let output = OutputStream()
            output.writeLine("restored take \(number): \(folder.file(chosen.file))")
            output.flush()
        }
    }
}
