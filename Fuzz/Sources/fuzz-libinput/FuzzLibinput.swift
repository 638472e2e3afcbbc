import FuzzSupport
import SlateCore

/// libFuzzer entry point: any input must parse or throw a InputRecordingError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = fuzzText(data, size)
    _ = InputRecordingFormat.detect(text)
    _ = try? LibinputRecording.parse(text, file: "fuzz")
    return 0
}
