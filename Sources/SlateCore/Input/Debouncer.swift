/// Folds the contact bounce of buttons, per device and key code: a release is
/// held for its input's debounce window; a press of the same button within the
/// window folds both away (the button stays down); otherwise the release goes
/// on, with its own timestamp, when the window ends. Presses are never held.
///
/// At most one release is held: the rig lets it go before any other button's
/// event, so events stay in time order. It reads no clock: the rig passes
/// every instant, and lets the release go at `nextDeadline`.
struct Debouncer {
    /// A release waiting out its window.
    struct HeldRelease {
        var source: SourceID
        var input: Int
        var event: InputEvent
        /// When the window ends: a press from then on is a press of its own.
        var until: Instant
    }

    private(set) var held: HeldRelease?

    /// When the held release's window ends.
    var nextDeadline: Instant? { held?.until }

    /// Holds `release` (a button's event of value 0) for `window`; a release
    /// already held must have been let go.
    mutating func hold(_ release: InputEvent, source: SourceID, input: Int, window: Duration) {
        precondition(held == nil, "a release is already held")
        held = HeldRelease(source: source, input: input, event: release, until: release.time + window)
    }

    /// Folds `press` into the held release when it presses the same button of
    /// the same device within the window: neither goes on, and the button stays
    /// down. Returns how long the contacts were open; nil when nothing folds.
    mutating func fold(_ press: InputEvent, source: SourceID) -> Duration? {
        guard let held, press.type == EventType.key, press.value == 1, held.source == source, held.event.code == press.code,
            press.time < held.until
        else { return nil }
        self.held = nil
        return press.time - held.event.time
    }

    /// The held release, which goes on now; nil when none is held.
    mutating func letGo() -> HeldRelease? {
        defer { held = nil }
        return held
    }
}
