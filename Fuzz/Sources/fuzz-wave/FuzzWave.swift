import SlateCore

/// libFuzzer entry point: any bytes must parse or throw a WaveError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let sound = try? WaveFile.parse(bytes: bytes, file: "fuzz") {
        precondition(sound.channels == 1 || sound.channels == 2)
        precondition(sound.samples.count % sound.channels == 0 && sound.frameCount > 0)
        precondition(sound.sampleRate > 0)
    }
    return 0
}
