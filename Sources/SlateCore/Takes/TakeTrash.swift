/// The work folder's trash: where a deleted take waits, restorable, before
/// it is deleted for good.
public enum TakeTrash {
    /// The folder in the work folder that holds deleted takes' files.
    public static let folderName = "trash"
    /// How long a deleted take is kept when the profile does not say.
    public static let defaultHours = 24
    /// The longest a profile may keep deleted takes: 30 days.
    public static let hoursLimit = 720

    /// When `take`, in the trash, is deleted for good (µs since 1970): as set
    /// when it was deleted, else `hours` after; nil when it is not in the trash.
    public static func expiry(of take: TakeManifest.Take, hours: Int) -> Int64? {
        take.trashed.map { take.trashExpires ?? expiry(deletedAt: $0, hours: hours) }
    }

    /// When a take deleted at `time` (µs since 1970) and kept `hours` is deleted for good.
    public static func expiry(deletedAt time: Int64, hours: Int) -> Int64 { time + Int64(hours) * 3_600_000_000 }

    /// The takes in the trash whose time is over at `now` (µs since 1970).
    public static func expired(in manifest: TakeManifest, at now: Int64, hours: Int) -> [TakeManifest.Take] {
        manifest.takes.filter { take in expiry(of: take, hours: hours).map { $0 <= now } ?? false }
    }

    /// The takes in the trash, the last deleted last.
    public static func contents(of manifest: TakeManifest) -> [TakeManifest.Take] {
        manifest.takes.filter { $0.trashed != nil }.sorted { ($0.trashed ?? 0, $0.started) < ($1.trashed ?? 0, $1.started) }
    }
}
