/// `value × numerator ÷ denominator` through a 128-bit product, so that a rate's 30000 or a
/// camera's 10,000,000 cannot overflow a day's or a decade's microseconds; results beyond
/// Int64 saturate instead of trapping (hostile takes.json values reach here).
enum WideMath {
    enum Rounding {
        /// Toward negative infinity.
        case down
        /// To the nearest, halves away from zero.
        case nearest
    }

    /// The scaled value; a denominator that is not positive counts as 1.
    static func scale(_ value: Int64, by numerator: Int64, over denominator: Int64, _ rounding: Rounding = .down) -> Int64 {
        let divisor = max(1, denominator)
        let estimate = Double(value) * Double(numerator) / Double(divisor)
        guard abs(estimate) < 9e18 else { return estimate < 0 ? .min : .max }
        // quotient × divisor + remainder is the product, the remainder with the product's sign.
        let (quotient, remainder) = divisor.dividingFullWidth(value.multipliedFullWidth(by: numerator))
        switch rounding {
        case .down: return remainder < 0 ? quotient - 1 : quotient
        case .nearest:
            guard remainder.magnitude * 2 >= divisor.magnitude else { return quotient }
            return remainder < 0 ? quotient - 1 : quotient + 1
        }
    }
}
