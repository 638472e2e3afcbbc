/// The chapters of an export, which editors and players list: one at each
/// take's start, titled with its number, its time of day and the rig
/// (`Take 2 · 10:07:03 · cam-a`), and one at each of its markers (its name,
/// or `Marker N`), each with the timecode of its frame.
public enum ExportChapters {
    public struct Chapter: Hashable, Sendable {
        /// Microseconds from the export's start.
        public var start: Int64
        public var title: String
        public var timecode: String?

        public init(start: Int64, title: String, timecode: String?) {
            self.start = start
            self.title = title
            self.timecode = timecode
        }
    }

    /// The chapters of `takes` joined in order, each starting `starts[i]`
    /// microseconds into the export; `rig` names the rig in the takes' titles.
    public static func plan(_ takes: [TakeManifest.Take], starts: [Int64], rig: String?) -> [Chapter] {
        var chapters: [Chapter] = []
        for (index, (take, start)) in zip(takes, starts).enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : Int64.max
            let title = ["Take \(index + 1)", take.timecode.map { String($0.prefix(8)) }, rig].compactMap { $0 }
            chapters.append(Chapter(start: start, title: title.joined(separator: " · "), timecode: take.timecode))
            for (number, marker) in take.markers.enumerated() {
                let at = start + Int64((marker.at * 1_000_000).rounded())
                guard at < next else { break }
                chapters.append(
                    Chapter(start: at, title: marker.name ?? "Marker \(number + 1)", timecode: marker.timecode))
            }
        }
        return chapters
    }
}
