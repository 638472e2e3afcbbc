import SlateCore
import SlateSystem

/// The work folder's trash (`TakeTrash`): a deleted take's entry is marked
/// with when it was deleted, and its file and thumbnail wait in the `trash`
/// folder (its proxy in the trash's `Proxy` or `Proxies`) until it is
/// restored, or its time is over and it is deleted for good.
extension TakeFolder {
    /// The trash folder, made with the work folder's mode when missing.
    public func trashFolder() throws(OperationError) -> Folder {
        do {
            return try Folder(file(TakeTrash.folderName), creating: access.folderMode)
        } catch {
            if case .system(let error) = error { throw error }
            throw OperationError(
                "open the trash", cause: SystemCallError("open", subject: file(TakeTrash.folderName), errno: .notDirectory))
        }
    }

    /// Where `take`'s file is: the trash when it was moved there, else the work folder.
    public func location(of take: TakeManifest.Take) -> String {
        if take.trashed != nil, let trash = try? trashFolder(), trash.contains(take.file) { return trash.file(take.file) }
        return file(take.file)
    }

    /// Moves `take` to the trash at `now` (µs since 1970): its entry is marked
    /// first, then its files moved; when the entry cannot be saved, nothing
    /// moves. False when the ledger no longer lists it.
    @discardableResult
    public func trash(_ take: TakeManifest.Take, from ledger: TakeLedger, at now: Int64) throws(OperationError) -> Bool {
        let expires = TakeTrash.expiry(deletedAt: now, hours: trashHours)
        let marked = try ledger.change(undoIfUnsaved: true) { manifest -> Bool in
            guard let index = manifest.takes.firstIndex(of: take) else { return false }
            manifest.takes[index].trashed = now
            manifest.takes[index].trashExpires = expires
            return true
        }
        guard marked else { return false }
        do {
            try moveFiles(of: take, from: directory, to: try trashFolder())
        } catch {
            // Not moved (a file of its name is in the trash): the take stays where it was, listed.
            if let trash = try? trashFolder() {
                try? moveFiles(of: take, from: trash, to: directory)
                try? trash.sync()
                try? directory.sync()
            }
            try? ledger.change { manifest in
                guard let index = manifest.takes.firstIndex(where: { $0.id == take.id && $0.file == take.file }) else { return }
                manifest.takes[index].trashed = nil
                manifest.takes[index].trashExpires = nil
            }
            throw error
        }
        return true
    }

    /// Deletes `take` as the profile says: to the trash for `trashHours`, or
    /// for good when that is 0. False when the ledger no longer lists it.
    @discardableResult
    public func discard(_ take: TakeManifest.Take, from ledger: TakeLedger, at now: Int64) throws(OperationError) -> Bool {
        guard trashHours > 0 else {
            let listed = ledger.manifest.takes.contains(take)
            try delete(take, from: ledger)
            return listed
        }
        return try trash(take, from: ledger, at: now)
    }

    /// Brings `take` back from the trash: its files first, then its entry, so
    /// a crash in between leaves it in the trash still. False when the ledger
    /// has no such take in the trash.
    @discardableResult
    public func restore(_ take: TakeManifest.Take, from ledger: TakeLedger) throws(OperationError) -> Bool {
        guard ledger.manifest.takes.contains(where: { $0 == take && $0.trashed != nil }) else { return false }
        try moveFiles(of: take, from: try trashFolder(), to: directory)
        return try ledger.change { manifest -> Bool in
            guard let index = manifest.takes.firstIndex(of: take) else { return false }
            manifest.takes[index].trashed = nil
            manifest.takes[index].trashExpires = nil
            manifest.takes[index].exported = nil
            return true
        }
    }

    /// Deletes for good the takes whose time in the trash is over at `now`
    /// (µs since 1970, kept `hours`): entries first, then files. Returns
    /// what was deleted, for the log.
    public func purge(_ ledger: TakeLedger, at now: Int64, hours: Int) -> [String] {
        let expired = TakeTrash.expired(in: ledger.manifest, at: now, hours: hours)
        guard !expired.isEmpty else { return [] }
        var notes: [String] = []
        do {
            try ledger.change { manifest in manifest.takes.removeAll { expired.contains($0) } }
            let trash = try trashFolder()
            for take in expired {
                for name in Self.files(of: take) {
                    try trash.remove(name)
                    try directory.remove(name)
                }
                try removeProxy(of: take, in: trash)
                try removeProxy(of: take, in: directory)
                let kept = ((TakeTrash.expiry(of: take, hours: hours) ?? 0) - (take.trashed ?? 0)) / 3_600_000_000
                notes.append("deleted \(take.file) for good: it was in the trash for \(kept) h")
            }
            try trash.sync()
            try directory.sync()
        } catch {
            notes.append("the trash could not be emptied: \(error)")
        }
        return notes
    }

    /// A take's files: its video and its thumbnail.
    static func files(of take: TakeManifest.Take) -> [String] { [take.file] + (take.thumbnail.map { [$0] } ?? []) }

    /// Moves a take's files from one folder to the other (those already
    /// there, or gone, are left), then syncs both; its proxy goes from its
    /// folder in the one to the same folder in the other.
    func moveFiles(of take: TakeManifest.Take, from source: Folder, to destination: Folder) throws(OperationError) {
        try moveProxy(of: take, from: source, to: destination)
        try Self.move(Self.files(of: take), from: source, to: destination)
    }

    /// Moves the files `names` of `source` that are there into `destination`,
    /// never over a file of the same name, then syncs both.
    static func move(_ names: [String], from source: Folder, to destination: Folder) throws(OperationError) {
        for name in names where source.contains(name) {
            guard try source.moveIfFree(name, to: destination) else {
                throw OperationError(
                    "move \(source.file(name))",
                    cause: SystemCallError("renameat2", subject: destination.file(name), errno: .fileExists))
            }
        }
        try destination.sync()
        try source.sync()
    }
}
