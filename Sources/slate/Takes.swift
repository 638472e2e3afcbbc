import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate takes`: the takes of a rig's work folder, when no daemon runs.
struct Takes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, delete, restore or export the takes in a rig's work folder, or lay several rigs' on a timeline.",
        subcommands: [List.self, Delete.self, Trash.self, Restore.self, Export.self, TimelineCommand.self])

    /// Where the takes are: --work, else the profile's camera.work, else ~/Videos/Slate/takes;
    /// the profile's camera.trash-hours too.
    struct FolderOptions: ParsableArguments {
        @Option(help: "The work folder holding the takes.")
        var work: String?

        @Option(help: "A profile whose camera.work folder to use (default: ~/.config/slate/rig.yaml when it is there).")
        var profile: String?

        /// The work folder, opened for `command` (made when `create`); exits 1 saying why it cannot be used.
        func resolve(_ command: String, create: Bool = false) throws -> TakeFolder {
            try resolve(command, create: create, output: nil).work
        }

        /// The work folder, where exports go (--output, else the profile's
        /// camera.output, else ~/Videos/Slate), the export filter (--filter,
        /// else the profile's camera.filter, else none) and the rig's name (the
        /// profile's mqtt.rig, else the host's), reading the profile once.
        func resolve(_ command: String, create: Bool = false, output option: String?, filter: ExportFilter? = nil) throws
            -> (work: TakeFolder, output: String, filter: ExportFilter, cleanUp: Bool, rig: String, name: ExportName)
        {
            // Given no --profile, the default one when it is there (its folders).
            let path = profile ?? (Syscall.isFile(UserPath.defaultProfile) ? UserPath.defaultProfile : nil)
            let loaded = try path.map(ProfileSource.loadOrExit)
            let camera = loaded?.camera
            var work: TakeFolder
            do {
                work = try TakeFolder(
                    path: UserPath.expand(self.work ?? camera?.work ?? UserPath.defaultWork), create: create,
                    access: camera?.takesAccess ?? .private)
            } catch {
                OutputStream.writeError("slate \(command): \(error)")
                throw ExitCode.failure
            }
            work.trashHours = camera?.trashHours ?? TakeTrash.defaultHours
            return (
                work, UserPath.expand(option ?? camera?.output ?? UserPath.defaultOutput), filter ?? camera?.filter ?? .none,
                camera?.cleanUp ?? false, loaded?.mqtt?.rig ?? HostName.current, camera?.exportName ?? .standard
            )
        }
    }

    /// The folder's takes, for a command that changes them: the folder's lock
    /// (held until the ledger goes), and what a crash left unfinished finished.
    static func open(_ folder: TakeFolder, command: String) throws -> (ledger: TakeLedger, lock: TakeFolderLock) {
        let lock: TakeFolderLock
        do {
            lock = try TakeFolderLock(folder, holder: TakeFolderLock.holder("takes \(command)"))
        } catch {
            if case .busy = error {
                OutputStream.writeError(
                    "slate takes \(command): \(error): its takes change only through it (its pedal, or stop it first)")
            } else {
                OutputStream.writeError("slate takes \(command): \(error)")
            }
            throw ExitCode.failure
        }
        let ledger = try ledger(folder)
        recover(ledger)
        for note in folder.purge(ledger, at: WallClock.microseconds(), hours: folder.trashHours) {
            OutputStream.writeError("slate takes: \(note)")
        }
        return (ledger, lock)
    }

    /// The folder's manifest with what a crash left unfinished finished, when no
    /// other process holds the folder; else as it is.
    static func read(_ folder: TakeFolder) throws -> TakeManifest {
        let ledger = try ledger(folder)
        if let lock = try? TakeFolderLock(folder, holder: TakeFolderLock.holder("takes list")) {
            recover(ledger)
            withExtendedLifetime(lock) {}
        }
        return ledger.manifest
    }

    private static func ledger(_ folder: TakeFolder) throws -> TakeLedger {
        do {
            return try TakeLedger(folder: folder)
        } catch {
            OutputStream.writeError("\(error)")
            throw Slate.badInput
        }
    }

    private static func recover(_ ledger: TakeLedger) {
        for note in ledger.folder.recover(ledger) { OutputStream.writeError("slate takes: \(note)") }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the takes, numbered from 1.")

        @OptionGroup var folder: FolderOptions

        @Flag(help: "One JSON object per line.")
        var json = false

        func run() throws {
            let folder = try self.folder.resolve("takes list")
            let takes = try Takes.read(folder).takes.filter { $0.trashed == nil }
            let output = OutputStream()
            for (index, take) in takes.enumerated() {
                let summary = take.summary
                let seconds = Instant.formatSeconds(summary.duration.microseconds, decimals: 3)
                if json {
                    output.writeLine(
                        JSONLine.encode(
                            TakeListLine(
                                number: index + 1, take: take, path: folder.file(take.file),
                                thumbnail: take.thumbnail.map(folder.file))))
                } else {
                    output.writeLine(
                        "\(index + 1)  \(take.file)  \(seconds) s  \(summary.frames) frames  \(summary.dropped) dropped  "
                            + "\(take.codec)  \(UTCTime.format(microseconds: take.started))"
                            + (take.recording ? "  (recording)" : "") + (take.kept.map { "  (kept: \($0))" } ?? ""))
                }
            }
            if takes.isEmpty && !json { output.writeLine("no takes in \(folder.path)") }
            output.flush()
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete one take by its number in the list: to the trash, or for good.",
            discussion: """
                The take's file and thumbnail move to the work folder's trash folder, from which \
                slate takes restore brings them back, for the profile's camera.trash-hours (24 \
                by default); then the next slate run or slate takes deletes them for good. With \
                camera.trash-hours: 0, or --for-good, the take is deleted at once.
                """)

        @Argument(help: "The take's number, as `slate takes list` shows it.")
        var number: Int

        @OptionGroup var folder: FolderOptions

        @Flag(help: "Delete the take at once instead of moving it to the trash.")
        var forGood = false

        @Flag(help: "Print the deleted take as one JSON object, as `slate takes list --json` wrote it.")
        var json = false

        func run() throws {
            let folder = try self.folder.resolve("takes delete")
            let (ledger, lock) = try Takes.open(folder, command: "delete")
            defer { withExtendedLifetime(lock) {} }
            let takes = ledger.manifest.takes.filter { $0.trashed == nil }
            guard takes.indices.contains(number - 1) else {
                OutputStream.writeError("slate takes delete: no take \(number) in \(folder.path) (\(takes.count) takes)")
                throw Slate.badInput
            }
            let take = takes[number - 1]
            var discarding = folder
            if forGood { discarding.trashHours = 0 }
            do {
                try discarding.discard(take, from: ledger, at: WallClock.microseconds())
            } catch {
                OutputStream.writeError("slate takes delete: \(error)")
                throw ExitCode.failure
            }
            let trashed = discarding.trashHours > 0
            let output = OutputStream()
            output.writeLine(
                json
                    ? JSONLine.encode(
                        TakeListLine(
                            number: number, take: take, path: folder.file(take.file), thumbnail: take.thumbnail.map(folder.file)))
                    : "deleted take \(number): \(folder.file(take.file))"
                        + (trashed
                            ? " (in the trash for \(folder.trashHours) h: slate takes restore \(take.file) brings it back)"
                            : ""))
            output.flush()
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the takes into one video in the output folder; keep them, or move them to the trash.",
            discussion: """
                The takes are joined by stream copy when they share codec, size and codec \
                parameters and no filter is asked for; otherwise they are decoded, scaled to the \
                first take's size, filtered and encoded again with the first take's codec and \
                frame rate. Each take must read as many frames as takes.json lists, and the \
                result is checked (re-opened, every frame there, the duration within one frame \
                of the takes' sum) before the takes leave the take list: they stay in the work \
                folder, or, with --clean-up (or the profile's camera.clean-up: true), move to its \
                trash. A failed export keeps every take where it was. An export never replaces \
                a file: a name taken gets -2, -3, ...
                """)

        @OptionGroup var folder: FolderOptions

        @Option(help: "The folder for the joined video.")
        var output: String?

        @Option(help: "The export filter (default: the profile's camera.filter, else none).")
        var filter: ExportFilter?

        @Flag(help: "Move the takes to the trash after the export (default: the profile's camera.clean-up, else no).")
        var cleanUp = false

        @Flag(help: "Keep the takes in the work folder after the export, whatever the profile says.")
        var keep = false

        @Flag(help: "Export what is readable of a damaged take (one that reads fewer frames than listed); its file is kept.")
        var acceptShort = false

        @Flag(help: "Print the result as one JSON object.")
        var json = false

        func run() throws {
            let (folder, outputFolder, filter, profileCleansUp, rig, name) = try self.folder.resolve(
                "takes export", output: output, filter: self.filter)
            let (ledger, lock) = try Takes.open(folder, command: "export")
            defer { withExtendedLifetime(lock) {} }
            do {
                try Folder(outputFolder, creating: 0o755).checkWritable()
            } catch {
                OutputStream.writeError("slate takes export: \(error); the takes are kept")
                throw ExitCode.failure
            }
            var bar = ProgressBar("exporting")
            let outcome: TakeExporter.Outcome
            do {
                let now = WallClock.microseconds()
                outcome = try TakeExporter(ledger: ledger, outputFolder: outputFolder).export(
                    at: now,
                    options: .init(
                        filter: filter, cleanUp: !keep && (cleanUp || profileCleansUp), acceptShort: acceptShort, rig: rig,
                        name: name, zoneOffset: LocalTime.zoneOffset(at: now))
                ) { bar.update($0.fraction) }
            } catch {
                OutputStream.writeError("slate takes export: \(error)")
                throw ExitCode.failure
            }
            // Ends the line of a bar left short by a take that read short.
            bar.update(1)
            let seconds = Instant.formatSeconds(outcome.duration.microseconds, decimals: 3)
            if json {
                print(JSONLine.encode(ExportLine(outcome)))
            } else {
                print(
                    "exported \(outcome.takes) take\(outcome.takes == 1 ? "" : "s") to \(outcome.path): \(seconds) s, \(outcome.frames) frames"
                )
                switch outcome.method {
                case .streamCopy: print("joined by stream copy")
                case .reencode(let reason): print("re-encoded" + (outcome.encoder.map { " with \($0)" } ?? "") + ": \(reason)")
                }
                switch outcome.sound {
                case nil: break
                case .copy: print("sound copied")
                case .reencode(let reason):
                    print("sound re-encoded" + (outcome.soundEncoder.map { " with \($0)" } ?? "") + ": \(reason)")
                }
                for take in outcome.short { print("exported short, file kept: \(take)") }
                if let proxy = outcome.proxy { print("its proxy: \(proxy)") }
                if let failure = outcome.proxyFailure { print(failure) }
                print(
                    outcome.kept
                        ? "the takes are kept in \(folder.path), out of the take list"
                        : "the takes are in the trash for \(folder.trashHours) h (slate takes trash)")
            }
        }
    }
}

extension ExportFilter: ExpressibleByArgument {}
