/// Where a browser's code is checked against the open pairing code: the
/// first right code pairs it and spends the code; wrong ones are counted,
/// and the `tries`th makes the code void. It reads no clock and no file: the
/// open code and the time are given, and `Answer.endsCode` says when the
/// caller should remove the code's file.
public struct PairingDesk: Sendable {
    /// Wrong codes a code survives: the `tries`th wrong one makes it void.
    public static let tries = 5

    /// The open code the wrong tries were counted against, and their number.
    private var counted: (code: String, wrong: Int)?

    public init() {}

    /// What a code sent by a browser met.
    public enum Answer: Equatable, Sendable {
        /// The open code: the browser is paired, and the code spent.
        case paired
        /// Not the open code; `left` more wrong tries make it void.
        case wrong(left: Int)
        /// Not the open code, and the last try: the code is void.
        case void
        /// The open code's time is over.
        case expired
        /// No code is open.
        case noCode
        /// Not six digits: refused without counting as a try.
        case malformed

        /// Whether the open code is over once this is answered.
        public var endsCode: Bool {
            switch self {
            case .paired, .void, .expired: true
            case .wrong, .noCode, .malformed: false
            }
        }

        /// Why a browser was not paired, for the page to show; nil when it was.
        public var refusal: String? {
            switch self {
            case .paired: nil
            case .wrong(let left): "that is not the code: \(left) more wrong \(left == 1 ? "try makes" : "tries make") it void"
            case .void: "that is not the code, and it was the last try: the code is void; run slate pair for a new one"
            case .expired: "the code has expired: run slate pair for a new one"
            case .noCode: "no pairing code is open: run slate pair for one"
            case .malformed: "a pairing code is \(PairingCode.digits) digits"
            }
        }
    }

    /// Checks `given` against `open` (the code file's, nil without one) at `now`.
    public mutating func redeem(_ given: String, open: PairingCode?, now: Int64) -> Answer {
        guard PairingCode.isCode(given) else { return .malformed }
        guard let open else { return .noCode }
        guard now < open.expires else { return .expired }
        if ConstantTime.equal(given, open.code) {
            counted = nil
            return .paired
        }
        let wrong = (counted?.code == open.code ? counted!.wrong : 0) + 1
        guard wrong < Self.tries else {
            counted = nil
            return .void
        }
        counted = (open.code, wrong)
        return .wrong(left: Self.tries - wrong)
    }
}
