import ArgumentParser
import SlateCore
import SlateSystem

extension Takes {
    /// `slate takes timeline`: several rigs' takes on one timeline for an editor.
    struct TimelineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Write the takes of one or more rigs' work folders as one multicam timeline (OpenTimelineIO).",
            discussion: """
                Each --work folder (a rig's own, or a copy from each rig on one machine) is a \
                track, named after the folder (or the folder holding it, for one named takes). \
                Only each folder's takes.json is read. Each take is placed at its first frame's \
                time (CLOCK_REALTIME, as takes.json keeps it), its source range starting at its \
                timecode, with its markers; takes in the trash or being exported are left out. \
                The timeline starts at the earliest take, its timecode that take's. The output \
                file is written into a folder of your own, as exports are.
                """)

        @Option(name: .customLong("work"), help: "A rig's work folder; give one for each rig.")
        var works: [String]

        @Option(help: "The timeline file to write (.otio).")
        var output: String

        @Option(help: "The timeline's name.")
        var name = "Slate"

        func validate() throws {
            guard !works.isEmpty else { throw ValidationError("give each rig's work folder with --work") }
        }

        func run() throws {
            var tracks: [MulticamTimeline.Track] = []
            for work in works {
                let path = Self.absolute(UserPath.expand(work))
                tracks.append(MulticamTimeline.Track(name: Self.trackName(path), clips: try Self.clips(in: path)))
            }
            guard let timeline = MulticamTimeline(name: name, tracks: tracks, timeOfDay: LocalTime.microsecondsOfDay) else {
                OutputStream.writeError("slate takes timeline: no takes in \(works.joined(separator: ", "))")
                throw ExitCode.failure
            }
            let (folderPath, fileName) = Folder.split(Self.absolute(UserPath.expand(output)))
            do {
                try FileWriting.atomicWrite(
                    JSONLine.encode(timeline.otio()) + "\n", to: fileName, in: try Folder(folderPath), mode: 0o644)
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
        /// in the trash nor being exported. Only its `takes.json` is read, and
        /// nothing is changed: the folder may be another user's, or a copy.
        static func clips(in path: String) throws -> [MulticamTimeline.Clip] {
            let manifest: TakeManifest
            do {
                let text = try FileReading.text(atPath: path + "/" + TakeManifest.fileName)
                manifest = try JSONLine.decode(TakeManifest.self, from: text.utf8)
            } catch {
                OutputStream.writeError("slate takes timeline: \(path)/\(TakeManifest.fileName): \(error)")
                throw ExitCode.failure
            }
            return manifest.takes.filter { !$0.recording && $0.trashed == nil && $0.exported == nil }.map {
                MulticamTimeline.Clip($0, path: path + "/" + $0.file)
            }
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
