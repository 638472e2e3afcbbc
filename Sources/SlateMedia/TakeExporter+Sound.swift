import SlateCore
import SlateSystem

extension TakeExporter {
    /// The sound of the take `name`, as the plan and the joining need it: its
    /// parameters, and where its packets start and end; nil when it has none.
    /// A read error ends the sound where it stops.
    static func sound(of name: String, in folder: Folder) throws -> (AudioStreamParameters, ExportPlan.Sound)? {
        guard let reader = try SoundReader.open(name, in: folder) else { return nil }
        var start: Int64?
        var end: Int64 = 0
        _ = try reader.forEachPacket { packet in
            start = start ?? packet.pts
            end = max(end, packet.pts + packet.duration)
        }
        let parameters = reader.parameters
        return (
            parameters,
            ExportPlan.Sound(
                codec: parameters.codec, format: parameters.format, extradata: parameters.extradata,
                frameSize: parameters.frameSize, start: start ?? 0, end: start == nil ? 0 : end)
        )
    }
}

/// The export's sound, joined beside its picture. Copied: each take's packets
/// go at the take's offset (its picture's), and the last packets of a take
/// that reach into the next take's first packet are dropped, so timestamps
/// increase; with AAC that packet starts 1024 frames (the encoder's priming)
/// before the take's offset, so about one audio frame (21 ms at 48 kHz) of the
/// end of each take but the first is lost. A decoder makes a whole frame of
/// every packet, so the takes' packets must follow one another without gap or
/// overlap for a player to hear each take where its timestamps say: a take's
/// sound moves by up to half a frame (10.7 ms at 48 kHz) to start where the
/// kept packets of the take before end, which are cut at the nearest packet
/// boundary (an edit list of one entry per take would be needed to place
/// copied AAC to the frame). Re-encoded: each take's sound is
/// decoded, converted to the export's format (the first take with sound's) by
/// libswresample, placed at its offset and fitted to its picture's span
/// (silence where the take has no sound, or where its sound stopped or had not
/// started), and encoded again with AAC.
///
/// The picture's joining says where each take starts and ends (`begin`, `end`,
/// in the picture's time base) and asks, before each picture packet, for the
/// sound up to that packet's time (`write(before:to:)`), so the file plays
/// from its start without seeking. `spans` says how much sound each take got.
final class SoundJoin {
    let method: ExportPlan.SoundMethod
    /// The export's sound stream.
    let parameters: AudioStreamParameters
    /// The encoder that made the sound (`aac`); nil when it was copied.
    let encoderName: String?
    /// Each take's sound as joined, against its picture, once the take is done.
    private(set) var spans: [ExportPlan.SoundSpan] = []

    private struct Take {
        var name: String
        var path: String
        var sound: ExportPlan.Sound?
    }

    private let takes: [Take]
    private let folder: Folder
    private let pictureTimeBase: TimeBase
    private let encoder: AudioEncoder?
    /// Sound packets that go into the file next, in order; timestamps in frames.
    private var ready: [EncodedPacket] = []
    /// How far behind the picture the sound is written: a packet this close to
    /// the picture's time may still be dropped when the next take starts.
    private let holdBack: Int64
    /// The take being joined and its picture's start and end (frames).
    private var current = -1
    private var start: Int64 = 0
    private var end: Int64?
    /// Copy: the take's packets as placed (times of all, those not yet
    /// released), its priming, and how far its sound was moved to follow the
    /// take before.
    private var times: [(pts: Int64, duration: Int64)] = []
    private var placed: [EncodedPacket] = []
    private var priming: Int64 = 0
    private var shift: Int64 = 0
    /// Re-encode: the take's sound, decoded as the encoder needs it; the
    /// frames decoded and not yet used, and the take's frame the first is.
    private var decoding: SoundDecoding?
    private var samples: [Int16] = []
    private var samplesStart: Int64 = 0
    private var lead: Int64 = 0
    /// Frames given to the encoder: the export's sound is made up to here.
    private var fed: Int64 = 0

    /// Joins the sound of `takes` (files of `folder`, with their sound as read
    /// by `TakeExporter.sound(of:in:)`) as `method` says.
    init(
        method: ExportPlan.SoundMethod, takes: [(name: String, sound: (AudioStreamParameters, ExportPlan.Sound)?)],
        in folder: Folder, pictureTimeBase: TimeBase
    ) throws(MediaError) {
        self.method = method
        self.folder = folder
        self.pictureTimeBase = pictureTimeBase
        self.takes = takes.map { Take(name: $0.name, path: folder.file($0.name), sound: $0.sound?.1) }
        guard let (first, sound) = takes.compactMap(\.sound).first else {
            throw MediaError("join the sound", path: folder.path, message: "no take has sound")
        }
        switch method {
        case .copy:
            var parameters = first
            parameters.initialPadding = Int(max(0, -sound.start))
            self.parameters = parameters
            encoder = nil
            encoderName = nil
        case .reencode:
            let encoder = try AudioEncoder(codec: .aac, format: first.format)
            self.encoder = encoder
            parameters = encoder.parameters
            encoderName = encoder.encoderName
        }
        let priming = takes.compactMap { $0.sound.map { max(0, -$0.1.start) } }.max() ?? 0
        holdBack = priming + Int64(parameters.frameSize > 0 ? parameters.frameSize : 1024)
    }

    private var rate: Int { parameters.format.rate }
    private var frames: TimeBase { parameters.timeBase }

    /// One audio frame: how far a take's sound may be from its picture.
    var tolerance: Int64 { Int64(parameters.frameSize > 0 ? parameters.frameSize : 1024) }

    /// Take `index` starts at `offset` (picture time base) in the export.
    func begin(take index: Int, at offset: Int64) throws(TakeExporter.Failure) {
        let at = pictureTimeBase.convert(offset, to: frames)
        do {
            switch method {
            case .copy:
                var packets: [EncodedPacket] = []
                if let reader = try SoundReader.open(takes[index].name, in: folder) {
                    let failure = try reader.forEachPacket { read in
                        var packet = read
                        packet.pts += at
                        packet.dts += at
                        packets.append(packet)
                    }
                    if let failure { throw failure }
                }
                let priming = max(0, at - (packets.first?.pts ?? at))
                let shift = close(before: packets.first?.pts ?? at, nextPriming: priming)
                for index in packets.indices {
                    packets[index].pts += shift
                    packets[index].dts += shift
                }
                placed = packets
                times = packets.map { ($0.pts, $0.duration) }
                self.priming = priming
                self.shift = shift
            case .reencode:
                (samples, samplesStart, lead, decoding) = ([], 0, 0, nil)
                if let reader = try SoundReader.open(takes[index].name, in: folder) {
                    let decoding = try SoundDecoding(reader, to: parameters.format)
                    while decoding.start == nil, let block = try decoding.next() { samples += block }
                    lead = ((decoding.start ?? 0) * Int64(rate) + 500_000) / 1_000_000
                    self.decoding = decoding
                }
            }
        } catch let failure as TakeExporter.Failure {
            throw failure
        } catch {
            throw TakeExporter.Failure(description: "cannot join the sound of \(takes[index].path): \(error); the takes are kept")
        }
        current = index
        start = at
        end = nil
    }

    /// The take being joined ends at `offset` (picture time base).
    func end(at offset: Int64) throws {
        let at = pictureTimeBase.convert(offset, to: frames)
        end = at
        if encoder != nil {
            try feed(upTo: at)
            spans.append(ExportPlan.SoundSpan(path: takes[current].path, picture: at - start, sound: fed - start))
            try finishDecoding()
        }
    }

    /// Writes the sound that plays before `time` (picture time base), short of
    /// what the next take may still drop.
    func write(before time: Int64, to writer: TakeWriter) throws(MediaError) {
        let at = pictureTimeBase.convert(time, to: frames)
        if encoder != nil { try feed(upTo: min(at, end ?? at)) }
        let safe = at - holdBack
        let count = placed.prefix(while: { $0.pts + $0.duration <= safe }).count
        ready += placed.prefix(count)
        placed.removeFirst(count)
        let due = ready.prefix(while: { $0.dts < safe }).count
        for packet in ready.prefix(due) { try writer.writeSound(packet) }
        ready.removeFirst(due)
    }

    /// Writes the rest of the sound, once the picture is all written.
    func finish(to writer: TakeWriter) throws(MediaError) {
        if let encoder {
            ready += try encoder.flush()
        } else if current >= 0 {
            let limit = (end ?? start) + shift
            release(placed.prefix(while: { $0.pts < limit }).count, until: nil, nextPriming: 0)
        }
        for packet in ready { try writer.writeSound(packet) }
        ready = []
    }

    /// Copy: the take before the one whose first packet starts at `next`
    /// keeps its packets up to the packet boundary nearest `next`, and returns
    /// how far the next take's packets move to start there (none when no
    /// boundary is within one audio frame: the spans then say the sound is off).
    private func close(before next: Int64, nextPriming: Int64) -> Int64 {
        guard current >= 0 else { return 0 }
        let released = times.count - placed.count
        var best: (count: Int, end: Int64)?
        for count in max(released, 1)...max(times.count, 1) where count <= times.count {
            let end = times[count - 1].pts + times[count - 1].duration
            if best.map({ abs(end - next) < abs($0.end - next) }) ?? true { best = (count, end) }
        }
        guard let best, abs(best.end - next) <= tolerance else {
            release(placed.prefix(while: { $0.pts + $0.duration <= next }).count, until: next, nextPriming: nextPriming)
            return 0
        }
        release(best.count - released, until: best.end, nextPriming: nextPriming)
        return best.end - next
    }

    /// Copy: the take that ends keeps the first `count` of its packets not yet
    /// released, the others are dropped; its span is what they play (each until
    /// the next starts, the last until `next`, where the next take's first
    /// packet starts) less its priming, plus the next take's priming, which
    /// plays in its stead.
    private func release(_ count: Int, until next: Int64?, nextPriming: Int64) {
        ready += placed.prefix(count)
        let kept = times.count - placed.count + count
        placed = []
        var covered: Int64 = 0
        for index in 0..<kept {
            let following = index + 1 < kept ? times[index + 1].pts : next ?? Int64.max
            covered += max(0, min(times[index].duration, following - times[index].pts))
        }
        let picture = (end ?? start) - start
        spans.append(
            ExportPlan.SoundSpan(path: takes[current].path, picture: picture, sound: covered - priming + nextPriming))
    }

    /// Re-encode: gives the encoder the export's sound up to frame `target`:
    /// the current take's, placed at its offset, silence where it has none.
    /// The take's sound is decoded as far as this needs, and what is used is
    /// let go: the memory held does not grow with the take's length.
    private func feed(upTo target: Int64) throws(MediaError) {
        guard let encoder else { return }
        let channels = parameters.format.channels
        while fed < target {
            let count = min(target - fed, 4800)
            var chunk = [Int16](repeating: 0, count: Int(count) * channels)
            // The take's own frames that fall in [fed, fed + count).
            let from = max(fed - start - lead, samplesStart)
            let to = try decoded(through: fed + count - start - lead)
            if from < to {
                let into = Int(start + lead + from - fed) * channels
                let first = Int(from - samplesStart) * channels
                chunk.replaceSubrange(
                    into..<into + Int(to - from) * channels, with: samples[first..<first + Int(to - from) * channels])
            }
            let used = max(0, min(to, fed + count - start - lead) - samplesStart)
            samples.removeFirst(min(samples.count, Int(used) * channels))
            samplesStart += used
            ready += try encoder.encode(chunk)
            fed += count
        }
    }

    /// Re-encode: decodes the take's sound until it holds its frame `end - 1`
    /// (or has no more); returns the end of what it holds.
    private func decoded(through end: Int64) throws(MediaError) -> Int64 {
        let channels = parameters.format.channels
        while samplesStart + Int64(samples.count / channels) < end, let decoding, let block = try decoding.next() {
            samples += block
        }
        return min(end, samplesStart + Int64(samples.count / channels))
    }

    /// Re-encode: decodes the rest of the take's sound, counting it, and
    /// checks it held what its packets span.
    private func finishDecoding() throws {
        samples = []
        guard let decoding else { return }
        while try decoding.next() != nil {}
        self.decoding = nil
        try checkDecoded(frames: decoding.frames, of: takes[current])
    }

    /// Re-encode: the decoded sound must hold what its packets span (a sound
    /// that stopped early is fine; one with a hole in it would land early).
    private func checkDecoded(frames: Int64, of take: Take) throws(TakeExporter.Failure) {
        guard let sound = take.sound else { return }
        let spanned = sound.end - max(sound.start, 0)
        let held = frames * Int64(sound.format.rate) / Int64(rate)
        guard spanned - held > sound.frameTolerance else { return }
        let seconds = { (frames: Int64) in Instant.formatSeconds(frames * 1_000_000 / Int64(sound.format.rate), decimals: 3) }
        throw TakeExporter.Failure(
            description: "\(take.path)'s sound decodes to \(seconds(held)) s where its packets span \(seconds(spanned)) s "
                + "(a gap in it); the takes are kept")
    }
}
