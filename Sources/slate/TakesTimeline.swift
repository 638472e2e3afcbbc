import ArgumentParser
import SlateCore
import SlateMedia
import SlateSystem

extension Takes {
    /// `slate takes timeline`: several rigs' takes on one timeline for an editor.
    struct TimelineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Write the takes of one or more rigs' work folders as one multicam timeline for an editor.",
            discussion: """
                Each --work folder (a rig's own, or a copy from each rig on one machine) is a \
                track, named after the folder (or the folder holding it, for one named takes). \
                Each take is placed at its first frame's time (CLOCK_REALTIME, as takes.json \
                keeps it), its source range starting at its timecode, with its markers; takes in \
                the trash or being exported are left out. The timeline starts at the earliest \
                take, its timecode that take's. The output file is written into a folder of your \
                own, as exports are.

                The timeline is written as OpenTimelineIO (otio), FCPXML 1.10 for Final Cut Pro \
                and DaVinci Resolve (fcpxml: each rig's takes in a lane of their own above one \
                gap, markers on their takes), or an MLT project for Kdenlive, Shotcut and melt \
                (kdenlive: a playlist a rig, markers as Kdenlive guides). Only each folder's \
                takes.json is read, and for FCPXML and MLT each take file's header, for its \
                picture size (left out when a file cannot be read, as in a copy of takes.json alone).
                """)

        @Option(name: .customLong("work"), help: "A rig's work folder; give one for each rig.")
        var works: [String]

        @Option(help: "The timeline file to write (.otio, .fcpxml, .kdenlive or .mlt).")
        var output: String

        @Option(
            help: """
                The file's format: otio (OpenTimelineIO), fcpxml (Final Cut Pro, DaVinci Resolve) or \
                kdenlive (an MLT project: Kdenlive, Shotcut, melt). Default: the one the output \
                file's extension names (.mlt is kdenlive), else otio.
                """)
        var format: MulticamTimeline.FileFormat?

        @Option(help: "The timeline's name.")
        var name = "Slate"

        func validate() throws {
            guard !works.isEmpty else { throw ValidationError("give each rig's work folder with --work") }
        }

        func run() throws {
            let format = format ?? MulticamTimeline.FileFormat(fileName: output)
            var tracks: [MulticamTimeline.Track] = []
            for work in works {
                let path = Self.absolute(UserPath.expand(work))
                let clips = try Self.clips(in: path, sizes: format != .otio)
                tracks.append(MulticamTimeline.Track(name: Self.trackName(path), clips: clips))
            }
            guard let timeline = MulticamTimeline(name: name, tracks: tracks, timeOfDay: LocalTime.microsecondsOfDay) else {
                OutputStream.writeError("slate takes timeline: no takes in \(works.joined(separator: ", "))")
                throw ExitCode.failure
            }
            let (folderPath, fileName) = Folder.split(Self.absolute(UserPath.expand(output)))
            do {
                try FileWriting.atomicWrite(timeline.file(format), to: fileName, in: try Folder(folderPath), mode: 0o644)
            } catch {
                OutputStream.writeError("slate takes timeline: \(error)")
                throw ExitCode.failure
            }
            let takes = tracks.reduce(0) { $0 + $1.clips.count }
            let out = OutputStream()
            defer { out.flush() }
            out.writeLine(
                "wrote \(folderPath)/\(fileName): \(tracks.count) track\(tracks.count == 1 ? "" : "s"), \(takes) takes, "
                    + "from \(Timecode(microsecondsOfDay: timeline.startOfDay, rate: timeline.rate))")
        }

        /// The finished takes listed in the work folder at `path` that are neither
        /// in the trash nor being exported, with their picture sizes when `sizes`.
        /// Only its `takes.json` is read (and the takes' headers, for their sizes),
        /// and nothing is changed: the folder may be another user's, or a copy.
        static func clips(in path: String, sizes: Bool) throws -> [MulticamTimeline.Clip] {
            let manifest: TakeManifest
            do {
                let text = try FileReading.text(atPath: path + "/" + TakeManifest.fileName)
                manifest = try JSONLine.decode(TakeManifest.self, from: text.utf8)
            } catch {
                OutputStream.writeError("slate takes timeline: \(path)/\(TakeManifest.fileName): \(error)")
                throw ExitCode.failure
            }
            let folder = sizes ? try? Folder(path) : nil
            return manifest.takes.filter { !$0.recording && $0.trashed == nil && $0.exported == nil }.map { take in
                var clip = MulticamTimeline.Clip(take, path: path + "/" + take.file)
                clip.size = folder.flatMap { Self.size(of: take.file, in: $0) }
                return clip
            }
        }

        /// The picture size the take file `name` of `folder` shows (turned as its
        /// display matrix says), from its header; nil when it cannot be read.
        static func size(of name: String, in folder: Folder) -> MulticamTimeline.Size? {
            guard let reader = try? PacketReader(name, in: folder) else { return nil }
            let (width, height) = (reader.parameters.width, reader.parameters.height)
            return reader.rotation % 180 == 0
                ? MulticamTimeline.Size(width: width, height: height) : MulticamTimeline.Size(width: height, height: width)
        }

        static func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : (ProcessInfoReading.workingFolder ?? ".") + "/" + path
        }

        /// The folder's name, or its parent's when it is named `takes` (`cam-a/takes` is cam-a's).
        static func trackName(_ path: String) -> String {
            let parts = path.split(separator: "/").filter { $0 != "." }
            guard let last = parts.last else { return "rig" }
            return last == "takes" && parts.count > 1 ? String(parts[parts.count - 2]) : String(last)
        }
    }
}

extension MulticamTimeline.FileFormat: ExpressibleByArgument {}
