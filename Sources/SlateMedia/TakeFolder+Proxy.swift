import SlateCore
import SlateSystem
import SystemPackage

/// A take's proxy (`TakeManifest.Take.proxy`) lives in a folder of the work
/// folder (`Proxy` or `Proxies`, as `ProxyNaming` files it), and goes where
/// its take goes: to the trash and back, and away for good.
extension TakeFolder {
    /// The proxy folder `name` of `root` (the work folder or its trash),
    /// checked as the work folder is; with `create`, made with its mode when
    /// missing; nil when it is missing and not to be made.
    func proxyFolder(_ name: String, in root: Folder, create: Bool) throws(OperationError) -> Folder? {
        do {
            return try Folder(root.file(name), creating: create ? access.folderMode : nil)
        } catch {
            switch error {
            case .missing where !create: return nil
            case .system(let error): throw error
            default:
                throw OperationError(
                    "open the proxy folder \(root.file(name))",
                    cause: SystemCallError("open", subject: root.file(name), errno: .notDirectory))
            }
        }
    }

    /// Creates the new file for the proxy at `path` (`Proxy/NAME.mp4`), its
    /// folder made when missing: the folder and the file's descriptor.
    public func createProxy(_ path: String) throws(OperationError) -> (folder: Folder, name: String, fd: FileDescriptor) {
        guard let (folderName, name) = ProxyNaming.split(path),
            let folder = try proxyFolder(folderName, in: directory, create: true)
        else {
            throw OperationError("create the proxy", cause: SystemCallError("open", subject: file(path), errno: .invalidArgument))
        }
        return (folder, name, try folder.create(name, mode: access.fileMode))
    }

    /// The folder in `root` holding `take`'s proxy and its name there; nil for
    /// a take without one, or when the folder is missing.
    func proxy(of take: TakeManifest.Take, in root: Folder) -> (folder: Folder, name: String)? {
        guard let path = take.proxy, let (folderName, name) = ProxyNaming.split(path),
            let folder = try? proxyFolder(folderName, in: root, create: false)
        else { return nil }
        return (folder, name)
    }

    /// Whether `root` holds `take`'s proxy.
    func holdsProxy(of take: TakeManifest.Take, in root: Folder) -> Bool {
        proxy(of: take, in: root).map { $0.folder.contains($0.name) } ?? false
    }

    /// Unlinks `take`'s proxy in `root` (gone already is fine), then syncs its folder.
    func removeProxy(of take: TakeManifest.Take, in root: Folder) throws(OperationError) {
        guard let (folder, name) = proxy(of: take, in: root) else { return }
        try folder.remove(name)
        try folder.sync()
    }

    /// Moves `take`'s proxy from its folder in `source` to the same folder in
    /// `destination` (made when missing); a proxy already there, or gone, is left.
    func moveProxy(of take: TakeManifest.Take, from source: Folder, to destination: Folder) throws(OperationError) {
        guard let (from, name) = proxy(of: take, in: source), from.contains(name),
            let (folderName, _) = take.proxy.flatMap(ProxyNaming.split),
            let to = try proxyFolder(folderName, in: destination, create: true)
        else { return }
        try Self.move([name], from: from, to: to)
    }
}
