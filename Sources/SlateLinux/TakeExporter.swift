import Glibc
import SlateCore

/// Joins a work folder's finished takes into one video in the output folder,
/// with continuous timestamps: by stream copy when the takes allow it and no
/// filter is asked for, else by decoding, filtering and encoding again. The
/// result is written to a temporary name, synced, re-opened and checked (its
/// duration within one frame of the takes' sum, every frame present); only then
/// is it given its name and are the takes deleted. Any failure keeps every take.
public struct TakeExporter {
    /// A finished export.
    public struct Outcome: Sendable {
        public var path: String
        public var takes: Int
        public var frames: Int
        public var duration: Duration
        /// Stream copy, or re-encode and why.
        public var method: ExportPlan.Method
        /// The libavcodec encoder used (`libx264`); nil for a stream copy.
        public var encoder: String?
    }

    /// The joined takes as read (each one's duration and frame duration), the
    /// frames written, and the encoder if one was used.
    struct Joined {
        var takes: [ExportPlan.Take]
        var frames: Int
        var encoder: String?
    }

    /// Why an export did not happen; the takes are all still there.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let folder: TakeFolder
    public let outputFolder: String

    public init(folder: TakeFolder, outputFolder: String) {
        self.folder = folder
        self.outputFolder = outputFolder
    }

    /// Exports every finished take, with `filter` applied; `progress` gets the
    /// fraction of frames written.
    public func export(at wallClock: Int64, filter: ExportFilter = .none, progress: (Double) -> Void = { _ in })
        throws(Failure) -> Outcome
    {
        var manifest: TakeManifest
        do {
            manifest = try folder.load()
        } catch {
            throw Failure(description: "\(error)")
        }
        let takes = manifest.takes.filter { !$0.recording }
        guard !takes.isEmpty else { throw Failure(description: "no takes to export in \(folder.path)") }

        var readers: [PacketReader] = []
        for take in takes {
            do {
                readers.append(try PacketReader(path: folder.file(take.file)))
            } catch {
                throw Failure(description: "cannot read take \(folder.file(take.file)): \(error.reason)")
            }
        }
        let planned = readers.map { ExportPlan.Take(read: $0, duration: 0, frames: 0) }
        guard let plan = ExportPlan(takes: planned, filter: filter) else {
            throw Failure(description: "no takes to export in \(folder.path)")
        }

        let name = ExportPlan.fileName(at: wallClock)
        let final = outputFolder + "/" + name
        let partial = outputFolder + "/." + name + ".partial"
        let expectedFrames = takes.reduce(0) { $0 + $1.frames }
        do {
            let joined =
                plan.method == .streamCopy
                ? try copy(readers, to: partial, total: expectedFrames, progress: progress)
                : try reencode(readers, filter: filter, to: partial, total: expectedFrames, progress: progress)
            // The takes as read: their real durations and frame counts are what the result must hold.
            guard let measured = ExportPlan(takes: joined.takes, filter: .none) else {
                unlink(partial)
                throw Failure(description: "no takes could be read from \(folder.path); the takes are kept")
            }
            let result = try MediaProbe.probe(path: partial)
            guard result.frameCount == joined.frames, measured.verifies(duration: .microseconds(result.durationMicroseconds))
            else {
                unlink(partial)
                throw Failure(
                    description: "the joined file does not check out (\(result.frameCount) frames, "
                        + "\(result.seconds) s; the takes hold \(joined.frames) frames, "
                        + "\(Double(measured.total.microseconds) / 1e6) s); the takes are kept")
            }
            guard rename(partial, final) == 0 else { throw SystemError("name the export", path: final) }
            try FileSync.folder(of: final)
            for take in takes { try folder.delete(take, from: &manifest) }
            return Outcome(
                path: final, takes: takes.count, frames: joined.frames, duration: .microseconds(result.durationMicroseconds),
                method: plan.method, encoder: joined.encoder)
        } catch let failure as Failure {
            throw failure
        } catch {
            unlink(partial)
            throw Failure(description: "\(error); the takes are kept")
        }
    }

    /// Copies the takes' packets one after another, each take's timestamps
    /// shifted to start where the previous one ended; returns each take as read
    /// (its duration and frame duration) and the frames copied.
    private func copy(
        _ readers: [PacketReader], to output: String, total: Int, progress: (Double) -> Void
    ) throws -> Joined {
        let first = readers[0]
        let timeBase = first.parameters.timeBase
        let writer = try TakeWriter(path: output, parameters: first.parameters, rotation: first.rotation)
        var offset: Int64 = 0
        var copied = 0
        var takes: [ExportPlan.Take] = []
        for reader in readers {
            let sameTimeBase = reader.parameters.timeBase == timeBase
            var start: Int64?
            var end = offset
            var frames = 0
            while var packet = reader.next() {
                if !sameTimeBase {
                    let from = reader.parameters.timeBase
                    packet.pts = from.convert(packet.pts, to: timeBase)
                    packet.dts = from.convert(packet.dts, to: timeBase)
                    packet.duration = from.convert(packet.duration, to: timeBase)
                }
                let base = start ?? packet.dts
                start = base
                packet.pts += offset - base
                packet.dts += offset - base
                end = max(end, packet.pts + packet.duration)
                try writer.write(packet)
                copied += 1
                frames += 1
                if copied % 30 == 0 { progress(Double(copied) / Double(max(1, total))) }
            }
            guard frames > 0 else { throw MediaError("read the take", path: reader.path, message: "it holds no frames") }
            takes.append(ExportPlan.Take(read: reader, duration: timeBase.microseconds(end - offset), frames: frames))
            offset = end
        }
        try writer.finish()
        progress(1)
        return Joined(takes: takes, frames: copied, encoder: nil)
    }
}

extension ExportPlan.Take {
    /// A take as read: its parameters, and its real duration and frame count.
    init(read reader: PacketReader, duration: Int64, frames: Int) {
        self.init(
            path: reader.path, codec: reader.parameters.codec, width: reader.parameters.width,
            height: reader.parameters.height, extradata: reader.parameters.extradata, duration: .microseconds(duration),
            frameDuration: .microseconds(frames > 0 ? duration / Int64(frames) : 0))
    }
}
