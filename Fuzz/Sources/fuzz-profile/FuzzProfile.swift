import FuzzSupport
import SlateCore

/// libFuzzer entry point: any input must load or give positioned errors; a
/// profile that loads must also build a rig without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch ProfileLoader.load(fuzzText(data, size), file: "fuzz") {
    case .success(let profile):
        _ = RigMachine(profile: profile)
    case .failure(let errors):
        precondition(!errors.diagnostics.isEmpty)
    }
    return 0
}
