extension ControlDeck {
    /// The most ticks a ruler is given; a finer scale leaves them to the page.
    static let rulerTicks = 100

    /// The controls and their overlay as a page draws them.
    public var status: ControlsEntry {
        let shown: String
        var highlight: Int?
        switch mode {
        case .hidden: shown = "hidden"
        case .overlay: shown = "overlay"
        case .picker(let index):
            shown = "picker"
            highlight = index
        }
        return ControlsEntry(shown: shown, current: current, highlight: highlight, items: controls.map(\.status))
    }
}

extension LiveControl {
    var status: ControlsEntry.Item {
        let bounds = scale.bounds
        var titles: [String]?
        if case .titles(let items) = scale { titles = items }
        return ControlsEntry.Item(
            name: spec.name, kind: isPicker ? "picker" : "slider", value: value, text: text, enabled: enabled,
            reason: disabled, minimum: bounds.lowerBound, maximum: bounds.upperBound, detents: detents,
            prominent: spec.prominent, titles: titles)
    }

    /// The values a ruler marks, when there are few enough.
    private var detents: [Double]? {
        let limit = ControlDeck.rulerTicks
        switch scale {
        case .list(let values): return values.count <= limit ? values : nil
        case .titles: return nil
        case .continuous(let range, let step), .stepped(let range, let step):
            guard step > 0, (range.upperBound - range.lowerBound) / step <= Double(limit) else { return nil }
            let count = Int(((range.upperBound - range.lowerBound) / step).rounded(.down))
            return (0...count).map { range.lowerBound + Double($0) * step }
        }
    }
}
