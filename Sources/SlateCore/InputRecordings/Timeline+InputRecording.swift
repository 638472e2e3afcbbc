extension Timeline {
    /// The events of every device of a recording, merged in time order
    /// (devices in recording order, then event order, on equal times).
    public init(recording: InputRecording) {
        let devices = recording.devices
        var items: [(time: Instant, item: Item)] = []
        items.reserveCapacity(devices.reduce(0) { $0 + $1.events.count })
        for (index, device) in devices.enumerated() {
            for event in device.events { items.append((event.time, .event(device: index, event))) }
        }
        if devices.count > 1 || !items.indices.dropFirst().allSatisfy({ items[$0 - 1].time <= items[$0].time }) {
            let order = items.indices.sorted { a, b in
                (items[a].time, Self.device(items[a].item), a) < (items[b].time, Self.device(items[b].item), b)
            }
            items = order.map { items[$0] }
        }
        self.init(devices: devices.map(\.identity), items: items)
    }

    private static func device(_ item: Item) -> Int {
        if case .event(let device, _) = item { return device }
        return 0
    }
}
