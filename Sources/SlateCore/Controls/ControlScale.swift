/// The values a control moves through as a knob turns, and how a value reads.
enum ControlScale: Sendable, Equatable {
    /// Any value in the range; a detent moves it by `detent`.
    case continuous(ClosedRange<Double>, detent: Double)
    /// Values `step` apart from the range's lower bound.
    case stepped(ClosedRange<Double>, step: Double)
    /// One of these values, in order.
    case list([Double])
    /// An index picker's items: the value is the index.
    case titles([String])

    /// Whether a fast spin may move it further per detent.
    var accelerates: Bool {
        switch self {
        case .continuous, .stepped: true
        case .list, .titles: false
        }
    }

    var bounds: ClosedRange<Double> {
        switch self {
        case .continuous(let range, _), .stepped(let range, _): range
        case .list(let values): (values.min() ?? 0)...(values.max() ?? 0)
        case .titles(let titles): 0...Double(max(0, titles.count - 1))
        }
    }

    /// The value nearest `value` that the scale holds.
    func snapped(_ value: Double) -> Double {
        switch self {
        case .continuous(let range, _):
            return min(max(value, range.lowerBound), range.upperBound)
        case .stepped(let range, let step):
            let steps = ((min(max(value, range.lowerBound), range.upperBound) - range.lowerBound) / step).rounded()
            return min(range.lowerBound + steps * step, range.upperBound)
        case .list(let values):
            return values.min { abs($0 - value) < abs($1 - value) } ?? value
        case .titles(let titles):
            return min(max(value.rounded(), 0), Double(max(0, titles.count - 1)))
        }
    }

    /// `value` moved by `steps` (negative: down); `wraps` takes a picker round its ends.
    func moved(_ value: Double, by steps: Int, wraps: Bool) -> Double {
        switch self {
        case .continuous(let range, let detent):
            let moved = value + Double(steps) * detent
            // Land on the detent grid, not a hair beside it.
            let grid = ((moved - range.lowerBound) / detent).rounded() * detent + range.lowerBound
            return snapped(abs(grid - moved) < detent * 1e-6 ? grid : moved)
        case .stepped(_, let step):
            return snapped(snapped(value) + Double(steps) * step)
        case .list(let values):
            let index = values.firstIndex(of: snapped(value)) ?? 0
            return values[min(max(index + steps, 0), values.count - 1)]
        case .titles(let titles):
            let index = Int(snapped(value)) + steps
            if wraps { return Double(((index % titles.count) + titles.count) % titles.count) }
            return Double(min(max(index, 0), titles.count - 1))
        }
    }

    /// Decimals that tell one detent's value from the next.
    var decimals: Int {
        let unit: Double
        switch self {
        case .continuous(_, let detent): unit = detent
        case .stepped(_, let step): unit = step
        case .list, .titles: return 3
        }
        var decimals = 0
        var scaled = unit
        while decimals < 3, abs(scaled - scaled.rounded()) > 1e-9 {
            scaled *= 10
            decimals += 1
        }
        return decimals
    }
}

/// Numbers as control lines show them.
enum ControlText {
    /// `value` with exactly `decimals` decimals (`2.0`, `128`); `signed` puts `+` before positive values.
    static func fixed(_ value: Double, decimals: Int, signed: Bool = false) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = Int64((value * scale).rounded())
        let sign = units < 0 ? "-" : (signed && units > 0 ? "+" : "")
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(scale)
        guard decimals > 0 else { return sign + String(whole) }
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
