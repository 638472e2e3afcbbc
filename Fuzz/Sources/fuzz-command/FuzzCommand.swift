import FuzzSupport
import SlateCore

/// A rig whose profile accepts a macro from others, holds one that runs a
/// program and one that sends on.
let rig: Profile = {
    let text = """
        inputs: {pedal: {match: {name: pedal}, bind: {KEY_B: take.toggle}}}
        macros:
          mark: [zoom.set 2, wait 1s, zoom.set 1]
          backup: [{exec: [true]}]
          relay: [rigs take.stop]
        mqtt: {broker: "mqtt://127.0.0.1", rig: cam-a, accept-macros: [mark]}
        """
    guard case .success(let profile) = ProfileLoader.load(text, file: "rig.yaml") else { fatalError("the fuzzed rig's profile") }
    return profile
}()

/// libFuzzer entry point: any payload on a `cmd` topic is scheduled or
/// refused with a reason, never traps; a refusal prints as one safe line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var inbox = CommandInbox()
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    let now = Instant(microseconds: 50_000_000)
    for _ in 0..<2 {
        let (command, arrival) = inbox.receive(
            payload: payload, now: now, realtimeNs: 1_795_000_000_000_000_000, frame: .milliseconds(33), profile: rig)
        switch arrival {
        case .scheduled(let due): precondition(due >= now && due <= now + CommandInbox.horizon)
        case .refused(let reason):
            precondition(!reason.isEmpty)
            let shown = TerminalText.safe((command?.shownAction ?? "") + reason)
            precondition(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        case .duplicate: precondition(command?.problem == nil)
        }
    }
    _ = inbox.takeDue(at: now + .seconds(11))
    return 0
}
