import SlateCore
import SlateSystem

/// Joins a work folder's finished takes into one video in the output folder,
/// with continuous timestamps: by stream copy when the takes allow it and no
/// filter is asked for, else by decoding, filtering and encoding again. Their
/// sound goes with the picture, copied or encoded again (`SoundJoin`). The
/// video is a finished MP4 (`TakeWriter.Layout.finished`), where takes are fragmented.
///
/// The result is written to a temporary file of its own, synced, re-opened and
/// checked against the takes as `takes.json` lists them (each take read to its
/// listed frame count; the result's frames and duration those of the takes;
/// each take's sound as long as its picture, and the file's, to one audio frame);
/// only then is it given a name no other file has, and the takes are deleted:
/// first marked in the manifest as held by the export (so a crash is finished
/// by `TakeFolder.recover`), then their files, then their entries. Any failure
/// before that keeps every take.
public struct TakeExporter: Sendable {
    /// What an export is asked to do besides joining.
    public struct Options: Sendable {
        public var filter: ExportFilter
        /// Move the takes to the trash after a verified export; without, they
        /// stay in the work folder, kept out of the take list.
        public var cleanUp: Bool
        /// Export what is readable of a take that reads short, and keep that take.
        public var acceptShort: Bool

        /// The rig the takes' chapters and the export's name name.
        public var rig: String?
        /// How the export is named, and the local time zone's offset from UTC its date and time are in
        /// (microseconds; UTC's by default).
        public var name: ExportName
        public var zoneOffset: Int64

        public init(
            filter: ExportFilter = .none, cleanUp: Bool = false, acceptShort: Bool = false, rig: String? = nil,
            name: ExportName = .standard, zoneOffset: Int64 = 0
        ) {
            self.filter = filter
            self.cleanUp = cleanUp
            self.acceptShort = acceptShort
            self.rig = rig
            self.name = name
            self.zoneOffset = zoneOffset
        }
    }

    /// A take that read fewer frames than `takes.json` lists.
    public struct ShortTake: Sendable, CustomStringConvertible {
        public var path: String
        public var read: Int
        public var listed: Int
        /// The read error, when reading stopped on one.
        public var error: String?

        public var description: String {
            "\(path) reads \(read) of its \(listed) frames" + (error.map { " (\($0))" } ?? "")
        }
    }

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
        /// How the sound was made; nil when no take has sound.
        public var sound: ExportPlan.SoundMethod?
        /// The sound's encoder (`aac`) when it was encoded again.
        public var soundEncoder: String?
        /// Takes exported short (with `acceptShort`); their files are kept.
        public var short: [ShortTake]
        /// Whether the takes were kept (`keep`).
        public var kept: Bool
        /// The export's proxy, joined from the takes' proxies; nil when they have none, or it failed.
        public var proxy: String?
        /// Why the takes' proxies were not joined.
        public var proxyFailure: String?

        /// `copied`, or `re-encoded with aac (take-2.mp4 has no sound)`; nil without sound.
        public var soundSummary: String? {
            switch sound {
            case nil: nil
            case .copy: "copied"
            case .reencode(let reason): "re-encoded" + (soundEncoder.map { " with \($0)" } ?? "") + " (\(reason))"
            }
        }
    }

    /// One take as read: its duration and frame duration, frames read, and the
    /// error that stopped reading it, if one did.
    struct Read {
        var take: ExportPlan.Take
        var frames: Int
        var error: MediaError?
    }

    /// The joined takes as read, the frames written, and the encoder if one was used.
    struct Joined {
        var reads: [Read]
        var frames: Int
        var encoder: String?
    }

    /// The file an export is written to before it is verified and named: a new
    /// file with an unpredictable name in the output folder, to be a finished MP4
    /// created when its first take was recorded, at its timecode, with a
    /// chapter at each take and marker of `takes`.
    struct Partial {
        var folder: Folder
        var name: String
        var io: DescriptorIO
        var stamp: TakeWriter.Stamp
        var takes: [TakeManifest.Take]
        var rig: String?

        /// The chapters when the takes start `starts` microseconds into the export.
        func chapters(starts: [Int64]) -> [ExportChapters.Chapter] { ExportChapters.plan(takes, starts: starts, rig: rig) }
    }

    /// Why an export did not happen; the takes are all still there.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let ledger: TakeLedger
    public let outputFolder: String

    public init(ledger: TakeLedger, outputFolder: String) {
        self.ledger = ledger
        self.outputFolder = outputFolder
    }

    private var folder: TakeFolder { ledger.folder }

    /// Exports the finished takes (those of `ids` only, when given); `progress`
    /// is told how far it has got every 30 frames, and once the takes are joined.
    /// When every take has a proxy in one proxy folder, their proxies are
    /// joined too, verified frame for frame against the takes, and named as
    /// the export in that folder of the output folder (`ProxyNaming`) once the
    /// export is named, before the takes leave the list; a proxy that cannot
    /// be made is said in the outcome, and the export stands without it.
    public func export(
        ids: Set<String>? = nil, at wallClock: Int64, options: Options = Options(),
        progress: (ExportProgress) -> Void = { _ in }
    ) throws(Failure) -> Outcome {
        let takes = ledger.manifest.takes.filter { $0.isExportable && ids?.contains($0.id) ?? true }
        guard !takes.isEmpty else { throw Failure(description: "no takes to export in \(folder.path)") }
        let name = options.name.fileName(rig: options.rig ?? "slate", local: wallClock + options.zoneOffset)
        let output: Folder
        do {
            output = try Folder(outputFolder, creating: 0o755)
        } catch {
            throw Failure(description: "\(error); the takes are kept")
        }
        let expectedFrames = takes.reduce(0) { $0 + $1.summary.frames }
        let join = try self.join(
            takes, files: takes.map(\.file), kind: "take", in: folder.directory, into: output, as: name, options: options,
            exact: false
        ) { frames in
            progress(ExportProgress(takes: takes.count, frames: frames, total: expectedFrames))
        }
        var proxy: ProxyJoin?
        var proxyFailure: String?
        if takes.contains(where: { $0.proxy != nil }) {
            if join.short.isEmpty {
                switch joinProxies(of: takes, as: name, to: output, options) {
                case .success(let joined): proxy = joined
                case .failure(let failure): proxyFailure = failure.description
                }
            } else {
                proxyFailure = "a take read short: the export has no proxy"
            }
        }
        let final: String
        do {
            final = output.file(try Self.name(join.partial, as: name, in: output))
            try output.sync()
        } catch {
            try? output.remove(join.partial)
            if let proxy { try? proxy.folder.remove(proxy.join.partial) }
            throw Failure(description: "\(error); the takes are kept")
        }
        var outcome = Outcome(
            path: final, takes: takes.count, frames: join.joined.frames,
            duration: .microseconds(join.result.durationMicroseconds),
            method: join.method, encoder: join.joined.encoder, sound: join.sound?.method, soundEncoder: join.sound?.encoderName,
            short: join.short, kept: !options.cleanUp)
        if let proxy {
            switch proxy.name(as: String(final.split(separator: "/").last ?? "")) {
            case .success(let path): outcome.proxy = path
            case .failure(let failure): proxyFailure = failure.description
            }
        }
        outcome.proxyFailure = proxyFailure
        do {
            try retire(takes, short: join.short, into: final, cleanUp: options.cleanUp, at: wallClock)
        } catch {
            throw Failure(description: "exported to \(final), but \(error); the takes not yet in the trash are kept")
        }
        return outcome
    }

    /// The takes' proxies joined and verified, in the output folder's proxy
    /// folder, waiting to be named as their export.
    struct ProxyJoin {
        var join: JoinedFile
        var folder: Folder
        var naming: ProxyNaming

        /// Names the proxy as the export `exportName` is named, never another
        /// name (an editor would link the wrong one): its path, or why not.
        func name(as exportName: String) -> Result<String, Failure> {
            let name = naming.fileName(for: exportName)
            do {
                guard try folder.renameIfFree(join.partial, to: name) else {
                    try? folder.remove(join.partial)
                    return .failure(Failure(description: "\(folder.file(name)) is there already: the export has no proxy"))
                }
                try folder.sync()
                return .success(folder.file(name))
            } catch {
                try? folder.remove(join.partial)
                return .failure(Failure(description: "the export has no proxy: \(error)"))
            }
        }
    }

    /// Joins the proxies of `takes` into the proxy folder of `output` (made
    /// with the output folder's mode), each read to its take's frames exactly.
    private func joinProxies(of takes: [TakeManifest.Take], as name: String, to output: Folder, _ options: Options)
        -> Result<ProxyJoin, Failure>
    {
        let proxies = takes.map { take in take.proxy.flatMap(ProxyNaming.split) }
        guard let first = proxies[0], proxies.allSatisfy({ $0?.folder == first.folder }),
            let naming = ProxyNaming.allCases.first(where: { $0.folder == first.folder })
        else { return .failure(Failure(description: "not every take has a proxy in one proxy folder: the export has no proxy")) }
        do throws(Failure) {
            let source: Folder, target: Folder
            do {
                guard let folder = try folder.proxyFolder(first.folder, in: folder.directory, create: false) else {
                    throw Failure(description: "\(self.folder.file(first.folder)) is missing")
                }
                source = folder
                target = try Folder(output.file(first.folder), creating: 0o755)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(description: "\(error)")
            }
            var proxyOptions = options
            proxyOptions.acceptShort = false
            let join = try self.join(
                takes, files: proxies.map { $0!.name }, kind: "proxy", in: source, into: target, as: naming.fileName(for: name),
                options: proxyOptions, exact: true, progress: { _ in })
            return .success(ProxyJoin(join: join, folder: target, naming: naming))
        } catch {
            // The takes go where the export sends them, whatever became of their proxies.
            let reason = error.description.replacing("; the takes are kept", with: "")
            return .failure(Failure(description: "the export has no proxy: \(reason)"))
        }
    }

    /// A join verified, in a file of its own waiting to be named: what was
    /// read and written, and how.
    struct JoinedFile {
        /// Its name in the output folder, until it is named.
        var partial: String
        var joined: Joined
        var result: MediaInfo
        var method: ExportPlan.Method
        var sound: SoundJoin?
        var short: [ShortTake]
    }

    /// Joins `files` of `source` (the files of `takes`, or their proxies: the
    /// `kind` of file, for messages) into a new file of `output` (to be named
    /// `name`), verified against what `takes.json` lists of the takes: each
    /// file read to its take's frames, or, `exact`, to exactly them. A failure
    /// leaves nothing behind.
    private func join(
        _ takes: [TakeManifest.Take], files: [String], kind: String, in source: Folder, into output: Folder, as name: String,
        options: Options, exact: Bool, progress written: (Int) -> Void
    ) throws(Failure) -> JoinedFile {
        var readers: [PacketReader] = []
        for file in files {
            do {
                readers.append(try PacketReader(file, in: source))
            } catch {
                throw Failure(description: "cannot read \(kind) \(source.file(file)): \(error.reason); the takes are kept")
            }
        }
        var sounds: [(AudioStreamParameters, ExportPlan.Sound)?] = []
        for file in files {
            do {
                sounds.append(try Self.sound(of: file, in: source))
            } catch {
                let reason = (error as? MediaError)?.reason ?? "\(error)"
                throw Failure(
                    description: "cannot read the sound of \(kind) \(source.file(file)): \(reason); the takes are kept")
            }
        }
        let planned = zip(readers, zip(takes, sounds)).map { reader, take in
            ExportPlan.Take(read: reader, duration: take.0.summary.duration.microseconds, frames: 0, sound: take.1?.1)
        }
        guard let plan = ExportPlan(takes: planned, filter: options.filter) else {
            throw Failure(description: "no takes to export in \(source.path)")
        }
        let partial: Partial
        do {
            let (partialName, fd) = try output.createUnique(prefix: "." + name + ".partial-", mode: 0o666)
            let io = try DescriptorIO(fd: fd, writing: true, path: output.file(partialName))
            partial = Partial(
                folder: output, name: partialName, io: io,
                stamp: TakeWriter.Stamp(
                    created: takes[0].started, timecode: takes[0].timecode, rate: readers[0].frameRate),
                takes: takes, rig: options.rig)
        } catch {
            throw Failure(description: "\(error); the takes are kept")
        }
        let joined: Joined
        let result: MediaInfo
        var short: [ShortTake] = []
        var sound: SoundJoin?
        do {
            if let method = plan.sound {
                sound = try SoundJoin(
                    method: method, takes: zip(files, sounds).map { ($0, $1) }, in: source,
                    pictureTimeBase: readers[0].parameters.timeBase)
            }
            joined =
                plan.method == .streamCopy
                ? try copy(readers, sound: sound, to: partial, progress: written)
                : try reencode(readers, filter: options.filter, sound: sound, to: partial, progress: written)
            for ((take, file), read) in zip(zip(takes, files), joined.reads)
            where read.error != nil || read.frames < take.summary.frames || (exact && read.frames != take.summary.frames) {
                short.append(
                    ShortTake(
                        path: source.file(file), read: read.frames, listed: take.summary.frames, error: read.error?.reason))
            }
            if !short.isEmpty && !options.acceptShort {
                throw Failure(
                    description: short.map(\.description).joined(separator: "; ")
                        + ": nothing was exported and every take is kept (--accept-short exports what is readable "
                        + "and keeps the damaged take's file)")
            }
            // The takes as read: their real durations and frame counts are what the result must hold.
            guard let measured = ExportPlan(takes: joined.reads.map(\.take), filter: .none), joined.frames > 0 else {
                throw Failure(description: "no frame could be read from the takes in \(source.path); the takes are kept")
            }
            result = try MediaProbe.probe(partial.name, in: output)
            guard result.frameCount == joined.frames, measured.verifies(duration: .microseconds(result.durationMicroseconds))
            else {
                throw Failure(
                    description: "the joined file does not check out (\(result.frameCount) frames, "
                        + "\(result.seconds) s; the takes hold \(joined.frames) frames, "
                        + "\(Double(measured.total.microseconds) / 1e6) s); the takes are kept")
            }
            if let sound { try Self.verify(sound, in: result) }
        } catch {
            try? output.remove(partial.name)
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "\(error); the takes are kept")
        }
        return JoinedFile(partial: partial.name, joined: joined, result: result, method: plan.method, sound: sound, short: short)
    }

    /// Takes the exported takes out of the take list: each is marked as in
    /// `export`, and kept in the work folder (a take that read short always,
    /// with why), or, cleaning up, moved to the trash at `now`.
    private func retire(
        _ takes: [TakeManifest.Take], short: [ShortTake], into export: String, cleanUp: Bool, at now: Int64
    ) throws(OperationError) {
        let exportName = String(export.split(separator: "/").last ?? "")
        let damaged = Dictionary(short.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = Set(takes.map(\.id))
        try ledger.change(undoIfUnsaved: true) { manifest in
            for index in manifest.takes.indices where ids.contains(manifest.takes[index].id) {
                if let reason = damaged[folder.file(manifest.takes[index].file)] {
                    manifest.takes[index].kept = "\(reason.description); what was readable is in \(exportName)"
                } else if cleanUp {
                    manifest.takes[index].exported = exportName
                    manifest.takes[index].trashed = now
                    manifest.takes[index].trashExpires = TakeTrash.expiry(deletedAt: now, hours: folder.trashHours)
                } else {
                    manifest.takes[index].kept = "joined into \(exportName)"
                }
            }
        }
        guard cleanUp else { return }
        let trash = try folder.trashFolder()
        for take in takes where damaged[folder.file(take.file)] == nil {
            try folder.moveFiles(of: take, from: folder.directory, to: trash)
        }
    }

    /// Gives the verified `partial` its name, `name` or, when a file has it,
    /// `slate-…-2.mp4`, `-3`, …: an export never replaces a file. Returns the name given.
    static func name(_ partial: String, as name: String, in folder: Folder) throws(OperationError) -> String {
        let stem = name.hasSuffix(".mp4") ? String(name.dropLast(4)) : name
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? name : "\(stem)-\(attempt).mp4"
            if try folder.renameIfFree(partial, to: candidate) { return candidate }
        }
        throw OperationError(
            "name the export", cause: SystemCallError("renameat2", subject: folder.file(name), errno: .fileExists))
    }

    /// The joined file's sound, against what the joining placed: each take's
    /// sound as long as its picture span, and the file's sound as long as its
    /// picture, to one audio frame.
    private static func verify(_ sound: SoundJoin, in result: MediaInfo) throws(Failure) {
        guard let info = result.sound else {
            throw Failure(
                description: "the joined file has no sound, where the takes' sound was \(sound.method); the takes are kept")
        }
        let format = sound.parameters.format
        if let mismatch = ExportPlan.soundMismatch(sound.spans, format: format, tolerance: sound.tolerance) {
            throw Failure(description: mismatch + "; the takes are kept")
        }
        let tolerance = sound.tolerance * 1_000_000 / Int64(format.rate)
        guard abs(info.durationMicroseconds - result.durationMicroseconds) <= tolerance else {
            throw Failure(
                description: "the joined file's sound lasts \(Instant.formatSeconds(info.durationMicroseconds, decimals: 3)) s, "
                    + "its picture \(Instant.formatSeconds(result.durationMicroseconds, decimals: 3)) s; the takes are kept")
        }
    }

    /// Copies the takes' packets one after another, each take's timestamps
    /// shifted to start where the previous one ended, and their sound beside
    /// them. A take stops at a read error, which its `Read` keeps. `progress`
    /// gets the frames written.
    private func copy(_ readers: [PacketReader], sound: SoundJoin?, to partial: Partial, progress: (Int) -> Void) throws
        -> Joined
    {
        let first = readers[0]
        let timeBase = first.parameters.timeBase
        let writer = try TakeWriter(
            io: partial.io, named: partial.name, in: partial.folder, parameters: first.parameters, rotation: first.rotation,
            sound: sound?.parameters, layout: .finished, stamp: partial.stamp)
        var offset: Int64 = 0
        var copied = 0
        var reads: [Read] = []
        var starts: [Int64] = []
        for (index, reader) in readers.enumerated() {
            starts.append(timeBase.microseconds(offset))
            try sound?.begin(take: index, at: offset)
            let sameTimeBase = reader.parameters.timeBase == timeBase
            var start: Int64?
            var end = offset
            var frames = 0
            let failure = try reader.forEachPacket { read in
                var packet = read
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
                try sound?.write(before: packet.dts, to: writer)
                try writer.write(packet)
                copied += 1
                frames += 1
                if copied % 30 == 0 { progress(copied) }
            }
            reads.append(
                Read(
                    take: ExportPlan.Take(read: reader, duration: timeBase.microseconds(end - offset), frames: frames),
                    frames: frames, error: failure))
            try sound?.end(at: end)
            offset = end
        }
        try sound?.finish(to: writer)
        try writer.finish(chapters: partial.chapters(starts: starts))
        progress(copied)
        return Joined(reads: reads, frames: copied, encoder: nil)
    }
}

extension ExportPlan.Take {
    /// A take as read: its parameters, and its real duration and frame count.
    init(read reader: PacketReader, duration: Int64, frames: Int, sound: ExportPlan.Sound? = nil) {
        self.init(
            path: reader.path, codec: reader.parameters.codec, width: reader.parameters.width,
            height: reader.parameters.height, extradata: reader.parameters.extradata, duration: .microseconds(duration),
            frameDuration: .microseconds(frames > 0 ? duration / Int64(frames) : 0), sound: sound)
    }
}

extension ExportLine {
    /// The line `slate takes export --json` prints for `outcome`.
    public init(_ outcome: TakeExporter.Outcome) {
        self.init(
            path: outcome.path, takes: outcome.takes, frames: outcome.frames, duration: outcome.duration.inSeconds(decimals: 3),
            method: outcome.method, encoder: outcome.encoder, sound: outcome.soundSummary, kept: outcome.kept,
            short: outcome.short.map(\.description), proxy: outcome.proxy, proxyFailure: outcome.proxyFailure)
    }
}
