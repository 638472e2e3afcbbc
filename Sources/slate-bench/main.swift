import Foundation
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

// Replays a 1,000,000-event recording through the gesture engine and macro
// runner (release build) and prints throughput and per-event latency.
// `slate-bench video` measures the test pattern and the video encoders instead;
// `slate-bench encode` and `slate-bench export` compare encoding and joining
// takes with the ffmpeg command line; `slate-bench record` measures `slate record`
// at 1080p30: peak memory and dropped frames.

if CommandLine.arguments.dropFirst().first == "video" {
    runVideoBench(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "encode" {
    runEncodeBench(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "record" {
    runRecordBench(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "export" {
    runExportBench(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "export-take" {
    runExportTakeBench(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

let eventCount = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
let profileText = """
    inputs:
      pedals:
        match: {vendor: 0x3553, product: 0xb001}
        bind: {KEY_B: primary, KEY_A: secondary, KEY_C: take.delete-last, REL_DIAL: zoom.step}
    capture:
      primary: {click: take.toggle, hold: take.start, release: take.stop, double: fps.toggle}
      secondary: {click: takes.export}
    """

/// A pedal-and-knob session written as evemu-record text: clicks, holds, double
/// clicks, autorepeat, dial turns, unbound keys, each frame with MSC_SCAN and SYN_REPORT.
func makeRecording(events: Int) -> String {
    var lines = [
        "# EVEMU 1.3", "N: PCsensor FootSwitch", "I: 0003 3553 b001 0111", "P: 00 00 00 00 00 00 00 00",
        "B: 00 17 00 00 00 00 00 00 00", "B: 01 00 00 00 40 00 40 01 00",
        "B: 02 80 00 00 00 00 00 00 00", "B: 04 10 00 00 00 00 00 00 00",
    ]
    lines.reserveCapacity(events + 16)
    var micros: Int64 = 1_000_000
    var written = 0
    func frame(_ entries: [(UInt16, UInt16, Int32)], after gap: Int64) {
        micros += gap
        let stamp =
            "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - String(micros % 1_000_000).count))\(micros % 1_000_000)"
        for (type, code, value) in entries + [(0, 0, 0)] {
            let hex = { (v: UInt16) in
                let s = String(v, radix: 16); return String(repeating: "0", count: 4 - s.count) + s
            }
            lines.append("E: \(stamp) \(hex(type)) \(hex(code)) \(value)")
            written += 1
        }
    }
    let keyB: UInt16 = 48, keyA: UInt16 = 30, keyC: UInt16 = 46, keyX: UInt16 = 45
    var round = 0
    while written < events {
        switch round % 6 {
        case 0:  // click
            frame([(4, 4, 0x7001e), (1, keyB, 1)], after: 700_000)
            frame([(4, 4, 0x7001e), (1, keyB, 0)], after: 90_000)
        case 1:  // hold with autorepeat
            frame([(4, 4, 0x7001e), (1, keyB, 1)], after: 400_000)
            for _ in 0..<4 { frame([(1, keyB, 2)], after: 150_000) }
            frame([(4, 4, 0x7001e), (1, keyB, 0)], after: 100_000)
        case 2:  // double click
            frame([(1, keyB, 1)], after: 500_000)
            frame([(1, keyB, 0)], after: 60_000)
            frame([(1, keyB, 1)], after: 120_000)
            frame([(1, keyB, 0)], after: 60_000)
        case 3:  // dial turns
            for step in 0..<8 { frame([(2, 7, step % 3 == 0 ? -1 : 1)], after: 16_000) }
        case 4:  // secondary, direct and unbound keys
            frame([(1, keyA, 1)], after: 600_000)
            frame([(1, keyA, 0)], after: 80_000)
            frame([(1, keyX, 1)], after: 50_000)
            frame([(1, keyX, 0)], after: 50_000)
            frame([(1, keyC, 1)], after: 300_000)
            frame([(1, keyC, 0)], after: 80_000)
        default:  // overlapping presses: the second is ignored
            frame([(1, keyB, 1)], after: 800_000)
            frame([(1, keyA, 1)], after: 50_000)
            frame([(1, keyA, 0)], after: 50_000)
            frame([(1, keyB, 0)], after: 50_000)
        }
        round += 1
    }
    return lines.joined(separator: "\n") + "\n"
}

func seconds(_ nanos: UInt64) -> Double { Double(nanos) / 1e9 }

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
}

let profile: Profile
do { profile = try ProfileLoader.load(profileText, file: "bench.yaml").get() } catch { fatalError("the bench profile: \(error)") }
let text = makeRecording(events: eventCount)
var start = MonotonicClock.nanoseconds()
let recording: InputRecording
do { recording = try InputRecording.parse(utf8: Array(text.utf8), file: "bench.evemu") } catch {
    fatalError("the bench recording: \(error)")
}
let parseTime = seconds(MonotonicClock.nanoseconds() - start)
let events = recording.devices[0].events
print(
    "recording: \(events.count) events, \(text.utf8.count / 1_000_000) MB of evemu text, parsed in \(String(format: "%.3f", parseTime)) s"
)

/// One pass of every event through a fresh rig; returns (wall ns, cpu s, reports).
func run(timed: Bool, latencies: inout [UInt32]) -> (UInt64, Double, Int) {
    var rig = RigMachine(profile: profile)
    guard case .bound(let source, _) = rig.attach(recording.devices[0].identity) else { fatalError("no match") }
    var effects: [RigEffect] = []
    effects.reserveCapacity(4096 + 64)
    var reports = 0
    let cpu = cpuSeconds()
    let begin = MonotonicClock.nanoseconds()
    for event in events {
        if timed {
            let t0 = MonotonicClock.nanoseconds()
            rig.handle(.event(event, from: source, resync: false), into: &effects)
            latencies.append(UInt32(clamping: MonotonicClock.nanoseconds() - t0))
        } else {
            rig.handle(.event(event, from: source, resync: false), into: &effects)
        }
        if effects.count > 4096 {
            reports += effects.count { if case .report = $0 { true } else { false } }
            effects.removeAll(keepingCapacity: true)
        }
    }
    rig.handle(.endOfStream(at: events.last!.time), into: &effects)
    let wall = MonotonicClock.nanoseconds() - begin
    return (wall, cpuSeconds() - cpu, reports + effects.count { if case .report = $0 { true } else { false } })
}

var latencies: [UInt32] = []
latencies.reserveCapacity(events.count)
var best: (UInt64, Double, Int) = (UInt64.max, 0, 0)
for _ in 0..<5 {
    let result = run(timed: false, latencies: &latencies)
    if result.0 < best.0 { best = result }
}
_ = run(timed: true, latencies: &latencies)
latencies.sort()
let clockCost: UInt64 = {
    let n = 100_000
    let t0 = MonotonicClock.nanoseconds()
    for _ in 0..<n { _ = MonotonicClock.nanoseconds() }
    return (MonotonicClock.nanoseconds() - t0) / UInt64(n)
}()
func percentile(_ p: Double, of sorted: [UInt32]) -> UInt32 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

let rate = Double(events.count) / seconds(best.0)
print(
    "engine: \(events.count) events in \(String(format: "%.3f", seconds(best.0))) s (best of 5, cpu \(String(format: "%.3f", best.1)) s), \(best.2) reports"
)
print(String(format: "events per second: %.2f million (target: at least 2 million on one core)", rate / 1e6))
print(
    "time per event: median \(percentile(0.5, of: latencies)) ns, p99 \(percentile(0.99, of: latencies)) ns, p99.9 \(percentile(0.999, of: latencies)) ns, max \(latencies.last!) ns (clock read costs ~\(clockCost) ns, included)"
)
print(rate >= 2_000_000 ? "target met" : "TARGET MISSED")
