import ArgumentParser
import SlateCore
import SlateLinux

/// `slate takes`: the takes of a rig's work folder, when no daemon runs.
struct Takes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, delete or export the takes in a rig's work folder.",
        subcommands: [List.self, Delete.self, Export.self])

    /// Where the takes are: --work, else the profile's camera.work, else ~/Videos/Slate/takes.
    struct Folder: ParsableArguments {
        @Option(help: "The work folder holding the takes.")
        var work: String?

        @Option(help: "A profile whose camera.work folder to use.")
        var profile: String?

        func resolve() throws -> TakeFolder { try resolve(output: nil).work }

        /// The work folder, where exports go (--output, else the profile's
        /// camera.output, else ~/Videos/Slate) and the export filter (--filter,
        /// else the profile's camera.filter, else none), reading the profile once.
        func resolve(output option: String?, filter: ExportFilter? = nil) throws
            -> (work: TakeFolder, output: String, filter: ExportFilter)
        {
            let camera = try profile.map(ProfileSource.loadOrExit)?.camera
            return (
                TakeFolder(path: UserPath.expand(work ?? camera?.work ?? UserPath.defaultWork)),
                UserPath.expand(option ?? camera?.output ?? UserPath.defaultOutput),
                filter ?? camera?.filter ?? .none
            )
        }
    }

    static func load(_ folder: TakeFolder) throws -> TakeManifest {
        do {
            return try folder.load()
        } catch {
            OutputStream.writeError("\(error)")
            throw Slate.badInput
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the takes, numbered from 1.")

        @OptionGroup var folder: Folder

        @Flag(help: "One JSON object per line.")
        var json = false

        func run() throws {
            let folder = try self.folder.resolve()
            let manifest = try Takes.load(folder)
            let output = OutputStream()
            for (index, take) in manifest.takes.enumerated() {
                let seconds = Instant.formatSeconds(take.duration.microseconds, decimals: 3)
                if json {
                    var object = JSONObject()
                    object.number("number", String(index + 1))
                    object.string("path", folder.file(take.file))
                    if let thumbnail = take.thumbnail { object.string("thumbnail", folder.file(thumbnail)) }
                    object.string("start", UTCTime.format(microseconds: take.started))
                    object.number("duration", seconds)
                    object.number("frames", String(take.frames))
                    object.number("dropped", String(take.dropped))
                    object.string("codec", take.codec)
                    object.bool("recording", take.recording)
                    output.writeLine(object.closed)
                } else {
                    output.writeLine(
                        "\(index + 1)  \(take.file)  \(seconds) s  \(take.frames) frames  \(take.dropped) dropped  "
                            + "\(take.codec)  \(UTCTime.format(microseconds: take.started))"
                            + (take.recording ? "  (recording)" : ""))
                }
            }
            if manifest.takes.isEmpty && !json { output.writeLine("no takes in \(folder.path)") }
            output.flush()
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete one take (its file, thumbnail and manifest entry) by its number in the list.")

        @Argument(help: "The take's number, as `slate takes list` shows it.")
        var number: Int

        @OptionGroup var folder: Folder

        func run() throws {
            let folder = try self.folder.resolve()
            var manifest = try Takes.load(folder)
            guard manifest.takes.indices.contains(number - 1) else {
                OutputStream.writeError("slate takes delete: no take \(number) in \(folder.path) (\(manifest.takes.count) takes)")
                throw Slate.badInput
            }
            let take = manifest.takes[number - 1]
            do {
                try folder.delete(take, from: &manifest)
            } catch {
                OutputStream.writeError("slate takes delete: \(error)")
                throw ExitCode.failure
            }
            print("deleted take \(number): \(folder.file(take.file))")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the takes into one video in the output folder, then delete them.",
            discussion: """
                The takes are joined by stream copy when they share codec, size and codec \
                parameters and no filter is asked for; otherwise they are decoded, scaled to the \
                first take's size, filtered and encoded again with the first take's codec and \
                frame rate. The result is checked (re-opened, every frame there, the duration \
                within one frame of the takes' sum) before the takes are deleted; a failed \
                export keeps every take.
                """)

        @OptionGroup var folder: Folder

        @Option(help: "The folder for the joined video.")
        var output: String?

        @Option(help: "The export filter (default: the profile's camera.filter, else none).")
        var filter: ExportFilter?

        @Flag(help: "Print the result as one JSON object.")
        var json = false

        func run() throws {
            let (folder, outputFolder, filter) = try self.folder.resolve(output: output, filter: self.filter)
            var bar = ProgressBar("exporting")
            let outcome: TakeExporter.Outcome
            do {
                outcome = try TakeExporter(folder: folder, outputFolder: outputFolder)
                    .export(at: WallClock.microseconds(), filter: filter) { bar.update($0) }
            } catch {
                OutputStream.writeError("slate takes export: \(error)")
                throw ExitCode.failure
            }
            let seconds = Instant.formatSeconds(outcome.duration.microseconds, decimals: 3)
            if json {
                var object = JSONObject()
                object.string("path", outcome.path)
                object.number("takes", String(outcome.takes))
                object.number("frames", String(outcome.frames))
                object.number("duration", seconds)
                object.string("method", outcome.method == .streamCopy ? "stream copy" : "re-encode")
                if case .reencode(let reason) = outcome.method { object.string("reason", reason) }
                if let encoder = outcome.encoder { object.string("encoder", encoder) }
                print(object.closed)
            } else {
                print("exported \(outcome.takes) take\(outcome.takes == 1 ? "" : "s") to \(outcome.path): \(seconds) s, \(outcome.frames) frames")
                switch outcome.method {
                case .streamCopy: print("joined by stream copy")
                case .reencode(let reason): print("re-encoded" + (outcome.encoder.map { " with \($0)" } ?? "") + ": \(reason)")
                }
            }
        }
    }
}

extension ExportFilter: ExpressibleByArgument {}
