/// The sound's level over its last 100 ms, channel by channel: the page's
/// audio meter (`meter` events of `/events`). Decibels are dBFS to a tenth,
/// silence at `AudioLevel.floorDB`.
public struct MeterReading: Codable, Equatable, Sendable {
    public struct Channel: Codable, Equatable, Sendable {
        /// `M`, `L`, `R`, or the channel's number.
        public var label: String
        public var peak: Double
        public var rms: Double
        /// Samples at full scale.
        public var clipped: Int
    }

    public var channels: [Channel]

    public init(_ level: AudioLevel) {
        func decibels(_ value: Double) -> Double {
            let tenths = (max(AudioLevel.floorDB, value) * 10).rounded()
            return tenths == 0 ? 0 : tenths / 10
        }
        channels = level.channels.enumerated().map { index, channel in
            Channel(
                label: AudioLevel.label(channel: index, of: level.channels.count), peak: decibels(channel.peakDB),
                rms: decibels(channel.rmsDB), clipped: channel.clipped)
        }
    }
}
