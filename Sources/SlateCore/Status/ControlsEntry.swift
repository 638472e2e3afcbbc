/// The capture controls' overlay as Apple draws it: which control is current,
/// whether the overlay or the picker shows, and each control's value, text,
/// scale and state.
public struct ControlsEntry: Codable, Equatable, Sendable {
    /// `hidden`, `overlay` or `picker`.
    public var shown: String
    /// The index of the control the overlay shows and the knob adjusts.
    public var current: Int
    /// The picker's highlighted control, while it is open.
    public var highlight: Int?
    public var items: [Item]

    public init(shown: String, current: Int, highlight: Int?, items: [Item]) {
        self.shown = shown
        self.current = current
        self.highlight = highlight
        self.items = items
    }

    /// One control.
    public struct Item: Codable, Equatable, Sendable {
        public var name: String
        /// `slider` or `picker`.
        public var kind: String
        public var value: Double
        /// The value through the profile's format (`1.5×`, `+0.3 EV`, `mono`).
        public var text: String
        public var enabled: Bool
        /// Why it cannot be used.
        public var reason: String?
        /// A slider's range.
        public var minimum: Double
        public var maximum: Double
        /// The values a slider stops on (its detents), when it has a short list of them.
        public var detents: [Double]?
        /// Values the ruler marks and the knob stops at once.
        public var prominent: [Double]
        /// A picker's items.
        public var titles: [String]?

        public init(
            name: String, kind: String, value: Double, text: String, enabled: Bool, reason: String?, minimum: Double,
            maximum: Double, detents: [Double]?, prominent: [Double], titles: [String]?
        ) {
            self.name = name
            self.kind = kind
            // Values a step of 0.1 made carry float noise (1.7000000000000002): to 6 places.
            self.value = value.rounded(decimals: 6)
            self.text = text
            self.enabled = enabled
            self.reason = reason
            self.minimum = minimum.rounded(decimals: 6)
            self.maximum = maximum.rounded(decimals: 6)
            self.detents = detents?.map { $0.rounded(decimals: 6) }
            self.prominent = prominent.map { $0.rounded(decimals: 6) }
            self.titles = titles
        }
    }
}
