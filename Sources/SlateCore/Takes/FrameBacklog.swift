/// Frames captured but not yet encoded, at most `capacity` of them. When the
/// encoder falls behind and the backlog is full, the oldest frame is dropped,
/// except the first frame at or after a take's start (the frame the take must
/// begin with, for a shutter lag within one frame whatever the encoder's speed)
/// and items pushed `pinned` (what the camera says between frames: a new
/// format, its end), which count towards no capacity and are never dropped.
public struct FrameBacklog<Item> {
    /// At least 1; lowered, the backlog drops down to it as frames come.
    public var capacity: Int
    public private(set) var items: [(time: Instant, item: Item)] = []
    /// Which of `items` are pinned.
    private var pinned: [Bool] = []
    /// Take starts whose first frame has not been handed out yet.
    private var starts: [Instant] = []
    /// Frames dropped so far.
    public private(set) var dropped = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// A take starts at `time`: keep its first frame.
    public mutating func protect(from time: Instant) { starts.append(time) }

    /// Adds a frame captured at `time`, dropping one if the backlog is full;
    /// a `pinned` item is kept whatever the backlog holds.
    public mutating func push(_ item: Item, at time: Instant, pinned: Bool = false) {
        items.append((time, item))
        self.pinned.append(pinned)
        guard self.pinned.count(where: { !$0 }) > capacity else { return }
        let kept = Set(starts.compactMap { start in items.indices.first { !self.pinned[$0] && items[$0].time >= start } })
        let unpinned = items.indices.filter { !self.pinned[$0] }
        let victim = unpinned.first { !kept.contains($0) } ?? unpinned[0]
        items.remove(at: victim)
        self.pinned.remove(at: victim)
        dropped += 1
    }

    /// The oldest frame; the starts it satisfies no longer need protecting.
    public mutating func pop() -> (time: Instant, item: Item)? {
        guard !items.isEmpty else { return nil }
        let first = items.removeFirst()
        if !pinned.removeFirst() { starts.removeAll { $0 <= first.time } }
        return first
    }
}

extension FrameBacklog: Sendable where Item: Sendable {}
