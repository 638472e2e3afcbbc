/// The chapters of an export, which editors and players list: one at each
/// take's start, titled with its number, its timecode (the time of day it
/// started) and the rig (`Take 2 · 10:07:03:12 · cam-a`), and one at each of
/// its markers (its name, or `Marker N`, and its timecode). MP4 chapters keep
/// only a title, so the timecode is in it.
public enum ExportChapters {
    public struct Chapter: Hashable, Sendable {
        /// Microseconds from the export's start.
        public var start: Int64
        public var title: String

        public init(start: Int64, title: String) {
            self.start = start
            self.title = title
        }
    }

    /// The chapters of `takes` joined in order, each starting `starts[i]`
    /// microseconds into the export; `rig` names the rig in the takes' titles.
    /// A marker past where the next take starts (a take that read short) is left out.
    public static func plan(_ takes: [TakeManifest.Take], starts: [Int64], rig: String?) -> [Chapter] {
        var chapters: [Chapter] = []
        for (index, (take, start)) in zip(takes, starts).enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : Int64.max
            let title = ["Take \(index + 1)", take.timecode, rig].compactMap { $0 }
            chapters.append(Chapter(start: start, title: title.joined(separator: " · ")))
            let markers = take.markers.enumerated().sorted { $0.element.at < $1.element.at }
            for (number, marker) in markers {
                let at = start + marker.microseconds
                guard at < next else { break }
                let name = marker.name ?? "Marker \(number + 1)"
                chapters.append(Chapter(start: at, title: [name, marker.timecode].compactMap { $0 }.joined(separator: " · ")))
            }
        }
        return chapters
    }
}
