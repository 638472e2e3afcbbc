import SlateCore
import SlateDevices
import SlateSystem

/// Where a take's sound comes from, read by the sound capture's thread only:
/// a capture device, or the test tone.
public protocol SoundSource: AnyObject {
    var format: AudioFormat { get }
    /// The device, as messages name it.
    var name: String { get }
    /// Waits for the next block (about 10 ms of sound) and returns it.
    func read() throws -> AudioBlock
}

/// What sound a rig records and how it is opened (again, after it was lost).
public struct SoundDevice: Sendable {
    public var device: AudioSpec.Device
    public var format: AudioFormat
    /// The test tone's clock (a capture device's blocks come on CLOCK_MONOTONIC).
    public var clock: any RigClock

    public init(device: AudioSpec.Device, format: AudioFormat, clock: any RigClock = SystemClock()) {
        self.device = device
        self.format = format
        self.clock = clock
    }

    /// Opens the device; nil for `none`.
    public func open() throws -> (any SoundSource)? {
        switch device {
        case .none: return nil
        case .testTone: return TestToneSource(format: format, clock: clock)
        case .alsa(let name):
            do {
                return try PCMCapture(device: name, format: format)
            } catch {
                throw SoundUnavailable(description: SoundCaptureDevices.missingDeviceMessage(name, reason: error.reason))
            }
        }
    }
}

extension PCMCapture: SoundSource {
    public var name: String { device }
}

/// Why a sound device could not be opened.
public struct SoundUnavailable: Error, CustomStringConvertible {
    public var description: String
}

/// The `testtone` device: `TestTone`'s sound in blocks of 10 ms, each returned
/// once its clock (the monotonic clock, or a test's virtual one) has reached
/// its end, as a sound card's are, and stamped on that clock without jitter or drift.
final class TestToneSource: SoundSource {
    let format: AudioFormat
    let name = "testtone"
    private let tone: TestTone
    private var start: Instant?
    private var position: Int64 = 0
    private let clock: any RigClock

    init(format: AudioFormat, clock: any RigClock) {
        self.clock = clock
        self.format = format
        tone = TestTone(format: format)
    }

    func read() throws -> AudioBlock {
        let frames = format.rate / 100
        let start = self.start ?? clock.now()
        self.start = start
        let time = start + .microseconds(position * 1_000_000 / Int64(format.rate))
        clock.sleep(until: start + .microseconds((position + Int64(frames)) * 1_000_000 / Int64(format.rate)))
        let block = AudioBlock(format: format, time: time, position: position, samples: tone.samples(at: time, frames: frames))
        position += Int64(frames)
        return block
    }
}

/// A rig's sound for its takes: the device, opened at start, and how takes
/// encode it. The recorder takes the open device from it (`takeSource`), so
/// nothing else keeps it open: a card unplugged is let go of as soon as its
/// capture fails.
public final class SoundRecording {
    private var source: (any SoundSource)?
    let settings: TakeSound.Settings
    /// The device and its format, e.g. `testtone, 48000 Hz stereo`.
    public let description: String

    /// Opens the device of `spec`; nil when takes are picture only. A device that
    /// cannot be opened throws, naming it. The test tone keeps `clock`'s time.
    public init?(_ spec: AudioSpec, clock: any RigClock = SystemClock()) throws {
        guard let device = spec.source else { return nil }
        let sound = SoundDevice(device: device, format: spec.format, clock: clock)
        guard let source = try sound.open() else { return nil }
        self.source = source
        description = "\(source.name), \(source.format)"
        settings = TakeSound.Settings(device: sound, codec: spec.codec, bitRate: spec.bitRate, gainDB: spec.gainDB)
    }

    /// The open device, once: the capture thread owns it from then on.
    func takeSource() -> (any SoundSource)? {
        defer { source = nil }
        return source
    }

    /// The ALSA device the sound comes from; nil for the test tone.
    public var alsaDevice: String? {
        if case .alsa(let name) = settings.device.device { return name }
        return nil
    }
}
