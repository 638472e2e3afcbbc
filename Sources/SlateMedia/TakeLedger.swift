import SlateCore
import SlateSystem
import Synchronization

/// A work folder's takes as this process keeps them: one manifest in memory,
/// shared by the thread that records takes and the one that exports them,
/// changed under a lock and saved after every change. Takes handed to an
/// export are reserved until it ends: they are not numbered, deleted or
/// exported again meanwhile.
public final class TakeLedger: Sendable {
    private struct State {
        var manifest: TakeManifest
        var reserved: Set<String> = []

        /// Finished takes that are neither reserved, exported nor kept after a short export.
        var available: [TakeManifest.Take] { manifest.takes.filter { $0.isExportable && !reserved.contains($0.id) } }
    }

    public let folder: TakeFolder
    private let state: Mutex<State>

    /// Reads the folder's manifest (an empty one when it has none yet).
    public init(folder: TakeFolder) throws(TakeFolder.Failure) {
        self.folder = folder
        state = Mutex(State(manifest: try folder.load()))
    }

    /// The manifest as it is now.
    public var manifest: TakeManifest { state.withLock { $0.manifest } }

    /// Finished takes that are not reserved by an export: the takes a rig's user counts.
    public var availableCount: Int { state.withLock { $0.available.count } }

    /// Finished takes that are not reserved by an export, oldest first.
    public var available: [TakeManifest.Take] { state.withLock { $0.available } }

    /// The position of the take `id` among the available takes, from 1.
    public func number(of id: String) -> Int? {
        state.withLock { state in state.available.firstIndex { $0.id == id }.map { $0 + 1 } }
    }

    /// The takes an export under way holds, oldest first.
    public var reservedTakes: [TakeManifest.Take] {
        state.withLock { state in state.manifest.takes.filter { state.reserved.contains($0.id) } }
    }

    /// The last available take.
    public var lastAvailable: TakeManifest.Take? { state.withLock { $0.available.last } }

    /// Reserves every available take for an export and returns their ids.
    public func reserveAvailable() -> Set<String> {
        state.withLock { state in
            let ids = Set(state.available.map(\.id))
            state.reserved.formUnion(ids)
            return ids
        }
    }

    /// The export of `ids` ended; those still listed are available again.
    public func release(_ ids: Set<String>) { state.withLock { $0.reserved.subtract(ids) } }

    /// Changes the manifest and saves it; returns what `body` returned. When the
    /// save fails, the change stays in memory (saved with the next one) unless
    /// `undoIfUnsaved`, and the error is thrown.
    @discardableResult
    public func change<T: Sendable>(undoIfUnsaved: Bool = false, _ body: (inout TakeManifest) -> T) throws(OperationError) -> T {
        let folder = self.folder
        let outcome: Result<T, OperationError> = state.withLock { state in
            let before = state.manifest
            let result = body(&state.manifest)
            guard state.manifest != before else { return .success(result) }
            do throws(OperationError) {
                try folder.save(state.manifest)
            } catch {
                if undoIfUnsaved { state.manifest = before }
                return .failure(error)
            }
            return .success(result)
        }
        return try outcome.get()
    }
}
