import FuzzSupport
import SlateCore

/// A rig whose profile holds a macro that runs a program and one that takes a short take.
let rig: Profile = {
    let text = """
        inputs: {pedal: {match: {name: pedal}, bind: {KEY_B: take.toggle}}}
        macros:
          mark: [zoom.set 2, wait 1s, zoom.set 1]
          backup: [{exec: [true]}]
          snap: [take.start, wait 2s, take.stop]
        """
    guard case .success(let profile) = ProfileLoader.load(text, file: "rig.yaml") else { fatalError("the fuzzed rig's profile") }
    return profile
}()

/// libFuzzer entry point: any body of `POST /actions` names the steps of an
/// action of the profile or is refused with a reason, never traps; a program
/// runs only from a macro the profile holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    switch ActionBody.decode(body).flatMap({ request in
        ActionText.steps(request.action, in: rig).map { (request.action, $0) }
    }) {
    case .success(let (action, steps)):
        precondition(!steps.isEmpty)
        let runsAProgram = steps.contains { if case .exec = $0.action { true } else { false } }
        precondition(!runsAProgram || steps == rig.macros["backup"], "\(action) runs a program")
    case .failure(let error):
        precondition(!error.description.isEmpty)
    }
    return 0
}
