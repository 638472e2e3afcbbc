import Dispatch
import Foundation
import Glibc
import SlateSystem
import Synchronization
import SystemPackage
import Testing

/// Budgets on what Slate reads and writes: report lines for a reader that
/// stops reading, and files larger than their budget or not regular files.
@Suite struct OutputAndFileBudgetTests {
    /// A pipe whose buffer is already full: nothing more goes in until it is read.
    func fullPipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x78, count: 4096)
        while write(ends[1], chunk, chunk.count) > 0 {}
        _ = fcntl(ends[1], F_SETFL, flags)
        return (ends[0], ends[1])
    }

    @Test func aReaderThatStopsHoldsUpNothingAndLinesPastTheQueueAreCounted() throws {
        let (readEnd, writeEnd) = try fullPipe()
        defer { close(readEnd) }
        let writer = try LineWriter(fd: FileDescriptor(rawValue: writeEnd), queueLimit: 1024)
        let output = OutputStream(writer: writer)
        let start = ContinuousClock.now
        for number in 0..<100 {
            output.writeLine(String(repeating: "\(number % 10)", count: 99))
            output.flush()
        }
        #expect(ContinuousClock.now - start < .milliseconds(500))
        // The queue holds ten lines, and the thread at most ten more it took to write.
        #expect(writer.dropped >= 100 - 2 * (1024 / 100))
        let closing = ContinuousClock.now
        writer.close()
        #expect(ContinuousClock.now - closing < LineWriter.closingGrace + .seconds(1))
        #expect(writer.dropped == 100)
        close(writeEnd)
    }

    @Test func linesReachAReaderThatReadsWholeAndInOrder() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = try LineWriter(fd: FileDescriptor(rawValue: writeEnd))
        let output = OutputStream(writer: writer)
        // A thread of its own, as a reader is: the tests' task pool may be busy for seconds in a full run.
        let received = ReceivedBytes()
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(readEnd, &chunk, chunk.count)
                if count <= 0 { break }
                received.append(chunk[0..<count])
            }
            received.finish()
        }
        reader.start()
        let lines = (0..<5000).map { "line \($0) " + String(repeating: "x", count: $0 % 300) }
        for line in lines { output.writeLine(line) }
        output.flush()
        writer.close()
        close(writeEnd)
        let text = String(decoding: received.wait(), as: UTF8.self)
        #expect(text == lines.joined(separator: "\n") + "\n")
        #expect(writer.dropped == 0)
        close(readEnd)
    }

    @Test func aFileOverItsBudgetIsRefusedSayingSo() throws {
        let path = NSTemporaryDirectory() + "slate-budget-\(UUID().uuidString)"
        defer { unlink(path) }
        try Data(repeating: 0x61, count: 2048).write(to: URL(fileURLWithPath: path))
        #expect(try FileReading.bytes(atPath: path, limit: 2048).count == 2048)
        do {
            _ = try FileReading.bytes(atPath: path, limit: 2047)
            Issue.record("a file over its budget was read")
        } catch {
            #expect(error.description == "\(path): cannot read: File too large (EFBIG): at most 2047 bytes is read")
        }
    }

    @Test func devicesAndFIFOsAreRefusedWithoutWaiting() throws {
        let fifo = NSTemporaryDirectory() + "slate-fifo-\(UUID().uuidString)"
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        for path in [fifo, "/dev/zero"] {
            let start = ContinuousClock.now
            do {
                _ = try FileReading.text(atPath: path, limit: 1 << 20)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.description.hasSuffix("only a regular file is read, not a FIFO or a device"))
            }
            #expect(ContinuousClock.now - start < .seconds(1))
        }
    }
}

/// What a reader thread received, handed over once it read to the end.
final class ReceivedBytes: Sendable {
    private let state = Mutex<(bytes: [UInt8], done: Bool)>(([], false))
    private let ended = DispatchSemaphore(value: 0)

    func append(_ bytes: ArraySlice<UInt8>) { state.withLock { $0.bytes += bytes } }

    func finish() {
        state.withLock { $0.done = true }
        ended.signal()
    }

    func wait() -> [UInt8] {
        ended.wait()
        return state.withLock { $0.bytes }
    }
}
