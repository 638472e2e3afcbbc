import SystemPackage

/// A secret kept in a file of its own that only its owner may read (mode
/// 0600): made on first use, and refused when anyone else could read or
/// change it.
public enum SecretFile {
    /// The largest secret file read, in bytes.
    public static let sizeLimit = 65536

    /// Why a secret file cannot be used.
    public enum Failure: Error, CustomStringConvertible {
        case exposed(path: String, mode: CModeT)
        case empty(path: String)
        case system(OperationError)
        case folder(Folder.Failure)

        public var description: String {
            switch self {
            case .exposed(let path, let mode):
                "\(path): a secret file must be readable by its owner only (mode 0600), not \(String(mode, radix: 8)); run chmod 600 \(path)"
            case .empty(let path): "\(path): the secret file is empty"
            case .system(let error): "\(error)"
            case .folder(let failure): "\(failure)"
            }
        }
    }

    /// The secret in `path`, without its line end; when the file is missing,
    /// `make()`'s secret is written there first (its folder made with 0700).
    public static func loadOrCreate(_ path: String, make: () -> String) throws(Failure) -> String {
        let (folderPath, name) = Folder.split(path)
        let folder: Folder
        do {
            folder = try Folder(folderPath, creating: 0o700)
        } catch {
            throw .folder(error)
        }
        if folder.status(of: name) == nil {
            do {
                let fd = try folder.create(name, mode: 0o600)
                defer { try? fd.close() }
                try FileWriting.writeAll(Array((make() + "\n").utf8), to: fd, path: path)
                try folder.sync()
            } catch  where error.errno == .fileExists {
                // Made meanwhile by another Slate: read it.
            } catch {
                throw .system(error)
            }
        }
        return try load(path, in: folder, name: name)
    }

    /// The secret in an existing file, checked as `loadOrCreate` checks it.
    public static func load(_ path: String) throws(Failure) -> String {
        let (folderPath, name) = Folder.split(path)
        let folder: Folder
        do {
            folder = try Folder(folderPath)
        } catch {
            throw .folder(error)
        }
        return try load(path, in: folder, name: name)
    }

    private static func load(_ path: String, in folder: Folder, name: String) throws(Failure) -> String {
        let fd: FileDescriptor
        let bytes: [UInt8]
        do {
            fd = try folder.openForReading(name)
        } catch {
            throw .system(error)
        }
        defer { try? fd.close() }
        if let mode = try? fd.stat().mode.permissions.rawValue, mode & 0o077 != 0 {
            throw .exposed(path: path, mode: mode)
        }
        do {
            bytes = try FileReading.bytes(of: fd, path: path, limit: Self.sizeLimit)
        } catch {
            throw .system(error)
        }
        var secret = String(decoding: bytes, as: UTF8.self)
        while secret.last?.isNewline == true { secret.removeLast() }
        guard !secret.isEmpty else { throw .empty(path: path) }
        return secret
    }

    /// A random number from the kernel.
    public static func randomNumber() -> UInt64 {
        var number: UInt64 = 0
        withUnsafeMutableBytes(of: &number) { Syscall.fillRandom($0) }
        return number
    }

    /// `count` random bytes from the kernel, as lowercase hexadecimal.
    public static func randomHex(bytes count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { Syscall.fillRandom($0) }
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
