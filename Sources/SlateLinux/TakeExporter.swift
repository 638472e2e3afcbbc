import Glibc
import SlateCore

/// Joins a work folder's finished takes into one video in the output folder
/// (the seed's nextAction): by stream copy, with continuous timestamps. The
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

    /// Exports every finished take; `progress` gets the fraction of packets copied.
    public func export(at wallClock: Int64, progress: (Double) -> Void = { _ in }) throws(Failure) -> Outcome {
        var manifest: TakeManifest
        do {
            manifest = try folder.load()
        } catch {
            throw Failure(description: "\(error)")
        }
        let takes = manifest.takes.filter { !$0.recording }
        guard !takes.isEmpty else { throw Failure(description: "no takes to export in \(folder.path)") }

        var planned: [ExportPlan.Take] = []
        var infos: [MediaInfo] = []
        for take in takes {
            let path = folder.file(take.file)
            do {
                let info = try MediaProbe.probe(path: path)
                let reader = try PacketReader(path: path)
                infos.append(info)
                planned.append(
                    ExportPlan.Take(
                        path: path, codec: info.codec, width: info.width, height: info.height,
                        extradata: reader.parameters.extradata, duration: .microseconds(info.durationMicroseconds),
                        frameDuration: .microseconds(info.frameCount > 0 ? info.durationMicroseconds / Int64(info.frameCount) : 0)))
            } catch {
                throw Failure(description: "cannot read take \(path): \(error.reason)")
            }
        }
        guard let plan = ExportPlan(takes: planned, filter: .none) else {
            throw Failure(description: "no takes to export in \(folder.path)")
        }
        if case .reencode(let reason) = plan.method {
            throw Failure(description: "these takes cannot be joined by stream copy: \(reason)")
        }

        let name = ExportPlan.fileName(at: wallClock)
        let final = outputFolder + "/" + name
        let partial = outputFolder + "/." + name + ".partial"
        let frames = infos.reduce(0) { $0 + $1.frameCount }
        do {
            try copy(plan.takes.map(\.path), to: partial, rotation: infos[0].rotation, total: frames, progress: progress)
            let result = try MediaProbe.probe(path: partial)
            guard result.frameCount == frames, plan.verifies(duration: .microseconds(result.durationMicroseconds)) else {
                unlink(partial)
                throw Failure(
                    description: "the joined file does not check out (\(result.frameCount) frames, "
                        + "\(result.seconds) s; the takes hold \(frames) frames, "
                        + "\(Double(plan.total.microseconds) / 1e6) s); the takes are kept")
            }
            guard rename(partial, final) == 0 else { throw SystemError("name the export", path: final) }
            try FileSync.folder(of: final)
            for take in takes { try folder.delete(take, from: &manifest) }
            return Outcome(path: final, takes: takes.count, frames: frames, duration: .microseconds(result.durationMicroseconds))
        } catch let failure as Failure {
            throw failure
        } catch {
            unlink(partial)
            throw Failure(description: "\(error); the takes are kept")
        }
    }

    /// Copies the takes' packets one after another, each take's timestamps
    /// shifted to start where the previous one ended.
    private func copy(
        _ paths: [String], to output: String, rotation: Int, total: Int, progress: (Double) -> Void
    ) throws {
        let first = try PacketReader(path: paths[0])
        let writer = try TakeWriter(path: output, parameters: first.parameters, rotation: rotation)
        var offset: Int64 = 0
        var copied = 0
        for path in paths {
            let reader = path == paths[0] ? first : try PacketReader(path: path)
            let sameTimeBase = reader.parameters.timeBase == first.parameters.timeBase
            var start: Int64?
            var end = offset
            while var packet = reader.next() {
                if !sameTimeBase {
                    let from = reader.parameters.timeBase, to = first.parameters.timeBase
                    packet.pts = from.convert(packet.pts, to: to)
                    packet.dts = from.convert(packet.dts, to: to)
                    packet.duration = from.convert(packet.duration, to: to)
                }
                let base = start ?? packet.dts
                start = base
                packet.pts += offset - base
                packet.dts += offset - base
                end = max(end, packet.pts + packet.duration)
                try writer.write(packet)
                copied += 1
                if copied % 30 == 0 { progress(Double(copied) / Double(max(1, total))) }
            }
            offset = end
        }
        try writer.finish()
        progress(1)
    }
}
