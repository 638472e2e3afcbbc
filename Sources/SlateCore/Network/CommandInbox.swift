/// Commands that reached this rig on its `cmd` topics: each id runs once, a
/// command timed by `at` waits for that instant on the monotonic clock, and
/// one whose instant passed by more than a frame is refused, so that no late
/// start looks synchronized.
public struct CommandInbox: Sendable {
    /// How many ids are remembered (a broker redelivers a QoS 1 command soon, not days later).
    public static let rememberedIDs = 512
    /// The furthest ahead a command may be timed.
    public static let horizon = Duration.seconds(10)

    /// What became of a command on arrival.
    public enum Arrival: Hashable, Sendable {
        /// It runs at this instant (monotonic); now, when it was not timed.
        case scheduled(Instant)
        /// Its id was seen before: it already ran, or was refused.
        case duplicate
        case refused(String)
    }

    private var seen: Set<String> = []
    private var order: [String] = []
    private var waiting: [(due: Instant, command: RigCommandMessage)] = []

    public init() {}

    /// When the next command waiting is due.
    public var nextDeadline: Instant? { waiting.first?.due }

    /// Marks `id` as seen: a command of that id that arrives later runs nothing.
    public mutating func remember(_ id: String) {
        guard seen.insert(id).inserted else { return }
        order.append(id)
        if order.count > Self.rememberedIDs { seen.remove(order.removeFirst()) }
    }

    /// Takes `command`, arrived at `now` (monotonic) when CLOCK_REALTIME read
    /// `realtimeNs`; `frame` is the camera's frame interval. `problem`, when
    /// given, is why the rig cannot run it (its action is unknown there).
    public mutating func receive(
        _ command: RigCommandMessage, now: Instant, realtimeNs: Int64, frame: Duration, problem: String? = nil
    ) -> Arrival {
        if let malformed = command.problem { return .refused(malformed) }
        guard !seen.contains(command.id) else { return .duplicate }
        remember(command.id)
        if let problem { return .refused(problem) }
        guard let at = command.at else {
            schedule(command, due: now)
            return .scheduled(now)
        }
        let (difference, overflow) = at.subtractingReportingOverflow(realtimeNs)
        let ahead = Duration.microseconds(overflow ? (at < realtimeNs ? Int64.min : Int64.max) / 1000 : difference / 1000)
        if ahead < .zero - frame {
            return .refused(
                "\(command.action) was timed \(Self.milliseconds(.zero - ahead)) ago, more than a frame (\(Self.milliseconds(frame))): not run late"
            )
        }
        if ahead > Self.horizon {
            return .refused(
                "\(command.action) is timed \(Self.milliseconds(ahead)) ahead, more than \(Self.milliseconds(Self.horizon)): check the rigs' clocks"
            )
        }
        let due = now + ahead
        schedule(command, due: due)
        return .scheduled(due)
    }

    /// Takes a payload that arrived on a `cmd` topic from the broker: the
    /// command it holds (nil when it holds none) and what became of it, checked
    /// against what `profile` lets a command run (`CommandSteps`).
    public mutating func receive(
        payload: [UInt8], now: Instant, realtimeNs: Int64, frame: Duration, profile: Profile
    ) -> (command: RigCommandMessage?, arrival: Arrival) {
        let command: RigCommandMessage
        switch RigCommandMessage.decode(payload) {
        case .success(let decoded): command = decoded
        case .failure(let refusal): return (nil, .refused(refusal.description))
        }
        var problem: String?
        if case .failure(let error) = CommandSteps.steps(command.action, from: .broker, in: profile) {
            problem = error.description
        }
        return (command, receive(command, now: now, realtimeNs: realtimeNs, frame: frame, problem: problem))
    }

    /// The commands due at or before `now`, in time order, each with its instant.
    public mutating func takeDue(at now: Instant) -> [(command: RigCommandMessage, due: Instant)] {
        let count = waiting.prefix { $0.due <= now }.count
        defer { waiting.removeFirst(count) }
        return waiting.prefix(count).map { ($0.command, $0.due) }
    }

    private mutating func schedule(_ command: RigCommandMessage, due: Instant) {
        let index = waiting.firstIndex { $0.due > due } ?? waiting.count
        waiting.insert((due, command), at: index)
    }

    static func milliseconds(_ duration: Duration) -> String {
        NumberText.format((Double(duration.microseconds) / 1000 * 10).rounded() / 10) + " ms"
    }
}
