import SlateCore
import SlateMedia
import SlateSystem

/// Makes the rig's status (what the page shows and the broker keeps) from the
/// rig machine's books, the recorder's gauges, the take folder and the report
/// lines that went out (the take and export in progress follow them).
final class RigStatusGatherer {
    /// How long a free-space reading is used.
    static let diskRefresh = Duration.seconds(1)

    private let work: TakeFolder
    private let gauges: RecorderGauges
    private var take: RigStatus.TakeInProgress?
    private var export: RigStatus.ExportEntry?
    private var disk: (at: Instant, free: Int64)?
    /// The bit rate measured on a take, by its id.
    private var bitRate: (id: String, bits: Int64)?

    init(work: TakeFolder, gauges: RecorderGauges) {
        self.work = work
        self.gauges = gauges
    }

    /// A report line went out: the take and export in progress follow it.
    func follow(_ line: ReportLine) {
        guard case .take(let take) = line.fields else { return }
        switch take.event {
        case "started": self.take = take.take.map { RigStatus.TakeInProgress(number: $0, started: line.t) }
        case "exporting": export = RigStatus.ExportEntry(takes: take.takes ?? 0, done: take.done ?? 0)
        case "exported": export = nil
        case "failed" where take.message?.hasPrefix("export") == true: export = nil
        default: break
        }
    }

    /// The status now, with the gauges' reading it was made from.
    func status(
        machine: RigMachine, takes: [TakeManifest.Take], exportingTakes: [TakeManifest.Take], trash: [TakeManifest.Take],
        sound: String?,
        exporting: Bool, previewers: Int, origin: Instant, at now: Instant
    ) -> (RigStatus, RecorderGauges.Reading) {
        let reading = gauges.reading
        let book = machine.book
        if !book.isRecording { take = nil }
        take?.summary = reading.take
        if !exporting { export = nil }
        if exporting, !exportingTakes.isEmpty {
            export = export ?? RigStatus.ExportEntry(takes: exportingTakes.count, done: 0)
            export?.items = Self.entries(exportingTakes, thumbnails: false)
        }
        var camera: RigStatus.CameraEntry?
        if case .streaming(let facts) = book.camera {
            camera = RigStatus.CameraEntry(
                name: facts.name, position: book.position.rawValue, fps: facts.streamRate, zoom: book.zoom, torch: book.torch,
                mode: reading.recording?.mode, encoder: reading.recording?.encoder)
        }
        let status = RigStatus(
            recording: book.isRecording, take: take, takes: Self.entries(takes), camera: camera, filter: book.filter.rawValue,
            controls: machine.deck.status, disk: diskEntry(takes: takes, at: now), export: export,
            sound: sound.map { RigStatus.SoundEntry(device: $0) },
            prompter: book.prompter.map { RigStatus.PrompterEntry($0, origin: origin) }, previewers: previewers)
        var withTrash = status
        withTrash.trash = trash.map { RigStatus.TrashEntry(take: $0, hours: work.trashHours) }
        withTrash.trashHours = work.trashHours
        withTrash.inputs = machine.inputs.map { input in
            RigStatus.InputEntry(
                name: input.name, device: input.device,
                used: input.lastUsed.map { ($0 - origin).inSeconds(decimals: 3) })
        }
        return (withTrash, reading)
    }

    /// Takes as the page lists them, numbered from 1; the page serves the
    /// thumbnails of numbered takes only, not of those an export holds.
    private static func entries(_ takes: [TakeManifest.Take], thumbnails: Bool = true) -> [RigStatus.TakeEntry] {
        takes.enumerated().map { index, take in
            RigStatus.TakeEntry(
                number: index + 1, file: take.file, summary: take.summary,
                thumbnail: thumbnails ? take.thumbnail.map { _ in "/takes/\(index + 1)/thumbnail.jpg?id=\(take.id)" } : nil,
                start: UTCTime.format(microseconds: take.started), sound: take.sound,
                video: thumbnails ? "/takes/\(index + 1)/video?file=\(take.file)" : nil)
        }
    }

    /// The free space, read at most once a second, and the rate the last take was recorded at.
    private func diskEntry(takes: [TakeManifest.Take], at now: Instant) -> RigStatus.DiskEntry? {
        if disk == nil || now - disk!.at >= Self.diskRefresh, let free = try? work.directory.freeBytes() { disk = (now, free) }
        guard let disk else { return nil }
        if let last = takes.last(where: { $0.summary.duration >= .seconds(1) }), bitRate?.id != last.id,
            let size = work.directory.status(of: last.file)?.size
        {
            bitRate = (last.id, size * 8 * 1_000_000 / max(1, last.summary.duration.microseconds))
        }
        return RigStatus.DiskEntry(freeBytes: disk.free, bitsPerSecond: bitRate?.bits)
    }
}
