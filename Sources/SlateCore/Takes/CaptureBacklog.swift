/// Frames captured but not yet encoded, at most `capacity` of them. When the
/// encoder falls behind and the backlog is full, the oldest frame is dropped,
/// except the first frame at or after a take's start: the frame the take must
/// begin with, for a shutter lag within one frame whatever the encoder's speed.
public struct CaptureBacklog<Item> {
    public let capacity: Int
    public private(set) var items: [(time: Instant, item: Item)] = []
    /// Take starts whose first frame has not been handed out yet.
    private var starts: [Instant] = []
    /// Frames dropped so far.
    public private(set) var dropped = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// A take starts at `time`: keep its first frame.
    public mutating func protect(from time: Instant) { starts.append(time) }

    /// Adds a frame captured at `time`, dropping one if the backlog is full.
    public mutating func push(_ item: Item, at time: Instant) {
        items.append((time, item))
        guard items.count > capacity else { return }
        let kept = Set(starts.compactMap { start in items.firstIndex { $0.time >= start } })
        let victim = items.indices.first { !kept.contains($0) } ?? 0
        items.remove(at: victim)
        dropped += 1
    }

    /// The oldest frame; the starts it satisfies no longer need protecting.
    public mutating func pop() -> (time: Instant, item: Item)? {
        guard !items.isEmpty else { return nil }
        let first = items.removeFirst()
        starts.removeAll { $0 <= first.time }
        return first
    }
}
