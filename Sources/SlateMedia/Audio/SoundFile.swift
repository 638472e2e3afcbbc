import SlateCore
import SlateSystem
import SystemPackage

/// Reads a sound file to play with libav: WAV (integer or float PCM of any
/// size, WAVE_FORMAT_EXTENSIBLE), AIFF, FLAC, Ogg, MP3 or CAF, decoded and
/// converted by libswresample to 16-bit samples at the file's rate, mono or
/// stereo (more channels are mixed down to stereo).
///
/// Budgets: the file is at most `SoundSpec.fileLimit` bytes and a regular
/// file, is one of `formats` (a playlist or any other container is probed but
/// not demuxed, and nothing opens another file), and decodes to at most
/// `SoundClip.maximumSamples`.
public enum SoundFile {
    /// The containers a sound file may be, as libavformat names its demuxers.
    public static let formats = ["wav", "w64", "aiff", "flac", "ogg", "mp3", "caf"]

    /// The sound of the file at `path`, or why it cannot be played.
    public static func read(path: String) throws(SoundFileError) -> SoundClip {
        try read(path: path, maximumSamples: SoundClip.maximumSamples)
    }

    /// The sound of the file at `path`; a sound of more than `maximumSamples` is refused.
    static func read(path: String, maximumSamples: Int) throws(SoundFileError) -> SoundClip {
        let fd: FileDescriptor
        do {
            fd = try FileReading.open(atPath: path, limit: SoundSpec.fileLimit)
        } catch {
            throw SoundFileError(file: path, message: error.reason)
        }
        do {
            let input = try MediaInput(
                fd: fd, path: path, formats: formats.joined(separator: ","),
                operation: "read the sound file (WAV, AIFF, FLAC, Ogg, MP3 or CAF)")
            guard let reader = try SoundReader(input) else {
                throw SoundFileError(file: path, message: "the file holds no sound")
            }
            let source = reader.parameters.format
            guard source.rate > 0, source.channels > 0 else {
                throw SoundFileError(file: path, message: "the sound has no rate or no channels")
            }
            let decoding = try SoundDecoding(reader, to: AudioFormat(rate: source.rate, channels: min(2, source.channels)))
            var samples: [Int16] = []
            while let block = try decoding.next() {
                guard samples.count + block.count <= maximumSamples else {
                    throw SoundFileError(file: path, message: "the sound holds more than \(maximumSamples) samples")
                }
                samples += block
            }
            guard !samples.isEmpty else { throw SoundFileError(file: path, message: "the sound is empty") }
            return SoundClip(
                sampleRate: source.rate, channels: min(2, source.channels), codec: reader.parameters.codec, samples: samples)
        } catch let error as SoundFileError {
            throw error
        } catch let error as MediaError {
            throw SoundFileError(file: path, message: error.reason)
        } catch {
            throw SoundFileError(file: path, message: "\(error)")
        }
    }
}
