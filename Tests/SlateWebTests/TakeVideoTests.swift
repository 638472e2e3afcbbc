import Foundation
import FoundationNetworking
import SlateCore
import SlateSystem
import Testing

@testable import SlateWeb

/// A take's file served as a phone's player asks for it: whole, or a range of its bytes.
extension RigServerTests {
    @Test func aTakesFileIsServedWholeOrByRange() async throws {
        let (server, board) = try await serving()
        let folder = NSTemporaryDirectory() + "slate-video-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/take-1.mp4"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.mp4", withDestinationPath: "/etc/passwd")
        board.publish(
            StatusBoardTests.status(takes: 2), thumbnails: [:],
            videos: [1: folder + "/take-1.mp4", 2: folder + "/link.mp4"])
        let (code, body, headers) = try await fetch(server, "/takes/1/video")
        #expect(code == 200 && Array(body.utf8).count > 0)
        #expect(headers["Accept-Ranges"] as? String == "bytes" && headers["Content-Type"] as? String == "video/mp4")
        #expect(headers["Content-Length"] as? String == "1000")
        let part = try await rawBytes(server, "/takes/1/video", headers: ["Range": "bytes=100-199"])
        #expect(part.status == 206 && part.body == Array(bytes[100...199]))
        #expect(part.headers["Content-Range"] as? String == "bytes 100-199/1000")
        let tail = try await rawBytes(server, "/takes/1/video", headers: ["Range": "bytes=-10"])
        #expect(tail.status == 206 && tail.body == Array(bytes[990...]))
        let past = try await fetch(server, "/takes/1/video", headers: ["Range": "bytes=2000-"])
        #expect(past.0 == 416 && past.2["Content-Range"] as? String == "bytes */1000")
        let download = try await fetch(server, "/takes/1/video?download")
        #expect(download.2["Content-Disposition"] as? String == #"attachment; filename="take-1.mp4""#)
        #expect(try await fetch(server, "/takes/3/video").0 == 404)
        #expect(try await fetch(server, "/takes/1/video?file=take-1.mp4").0 == 200)
        let moved = try await fetch(server, "/takes/1/video?file=take-2.mp4")
        #expect(moved.0 == 404 && moved.1.contains("take 1 is no longer take-2.mp4"))
        // A link where the take should be is not followed.
        let linked = try await fetch(server, "/takes/2/video")
        #expect(linked.0 == 404 && !linked.1.contains("root:"))
        try await stop(server, board)
    }

    /// Status, body bytes and headers of a GET.
    func rawBytes(_ server: RigServer, _ path: String, headers: [String: String]) async throws
        -> (status: Int, body: [UInt8], headers: [AnyHashable: Any])
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.address.port)\(path)")!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, Array(data), http.allHeaderFields)
    }
}
