import Foundation
import SlateSystem
import Testing

/// Secrets (the HTTP API's token) in files only their owner reads.
@Suite struct SecretFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "slate-secret-\(UUID().uuidString)"
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func madeOnFirstUseOwnerOnlyThenKept() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state/slate/http-token"
        let first = try SecretFile.loadOrCreate(path) { SecretFile.randomHex(bytes: 32) }
        #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))
        #expect(try mode(path) == 0o600)
        #expect(try mode(folder + "/state/slate") == 0o700)
        var made = false
        let again = try SecretFile.loadOrCreate(path) {
            made = true
            return "other"
        }
        #expect(again == first && !made)
        #expect(SecretFile.randomHex(bytes: 32) != first)
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/token"
        try "secret\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: SecretFile.Failure.self) { try SecretFile.load(path) }
        do {
            _ = try SecretFile.load(path)
        } catch {
            #expect(
                "\(error)"
                    == "\(path): a secret file must be readable by its owner only (mode 0600), not 644; run chmod 600 \(path)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try SecretFile.load(path) == "secret")
        try "\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: SecretFile.Failure.self) { try SecretFile.load(path) }
    }
}
