/// A take in the trash, as `slate takes trash --json` and the page's status
/// show it: its file, where it is now, how long it is, when it was deleted and
/// when it will be deleted for good (UTC text), and the export it went into.
public struct TrashLine: Codable, Hashable, Sendable {
    public var id: String
    public var file: String
    public var path: String
    /// When the take started, UTC.
    public var start: String
    /// Seconds, to the millisecond.
    public var duration: Double
    public var deleted: String
    public var expires: String
    public var export: String?

    public init(take: TakeManifest.Take, path: String, hours: Int) {
        id = take.id
        file = take.file
        self.path = path
        start = UTCTime.format(microseconds: take.started)
        let entry = RigStatus.TrashEntry(take: take, hours: hours)
        (duration, deleted, expires) = (entry.duration, entry.deleted, entry.expires)
        export = take.exported
    }
}
