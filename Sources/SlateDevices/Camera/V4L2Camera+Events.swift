import CV4L2
import SlateCore
import SlateSystem

extension V4L2Camera {
    /// Subscribes to the driver's control events (`VIDIOC_SUBSCRIBE_EVENT`,
    /// `V4L2_EVENT_CTRL`, no initial event) for every control with a value, and
    /// returns those controls as they are now. From then on a change made from
    /// outside (another program, an automatic mode turned on or off) makes the
    /// device signal POLLPRI, streaming or not: `waitForFrame(orMail:)` says
    /// `.controls`, epoll wakes for `PollEvents.priority`, and
    /// `controlChanges()` reads them. Slate's own changes are not reported back.
    /// A control only libv4l2 knows (emulated in software) is left out.
    @discardableResult
    public func subscribeControlEvents() throws(CameraError) -> [CameraControl] {
        checkOwner()
        var subscribed: [CameraControl] = []
        for control in try controls() where control.kind.hasValue {
            var subscription = v4l2_event_subscription()
            subscription.type = UInt32(V4L2_EVENT_CTRL)
            subscription.id = control.id.rawValue
            let result = Syscall.v4l2Ioctl(fd, slate_vidioc_subscribe_event(), &subscription)
            if case .failure(.invalidArgument) = result { continue }
            try result.camera(
                "VIDIOC_SUBSCRIBE_EVENT", on: path, to: "subscribe to changes of control '\(control.name)' (\(control.id))")
            subscribed.append(control)
        }
        return subscribed
    }

    /// Every control change the driver has queued (`VIDIOC_DQEVENT` until none
    /// is left), oldest first; none when nothing changed. The driver merges
    /// changes of one control not yet read into one.
    public func controlChanges() throws(CameraError) -> [CameraControlChange] {
        checkOwner()
        var changes: [CameraControlChange] = []
        while true {
            let event: slate_control_event
            switch Syscall.v4l2DequeueEvent(fd) {
            case .success(let dequeued): event = dequeued
            case .failure(.noSuchFileOrDirectory), .failure(.resourceTemporarilyUnavailable): return changes
            case .failure(let errno): throw .system("dequeue control changes", "VIDIOC_DQEVENT", path: path, errno)
            }
            guard event.type == UInt32(V4L2_EVENT_CTRL) else { continue }
            // A bitmask is a u32 that came back through the s32 field.
            let isBitmask = event.control_type == V4L2_CTRL_TYPE_BITMASK.rawValue
            changes.append(
                CameraControlChange(
                    id: .init(event.id), value: isBitmask ? event.value & 0xFFFF_FFFF : event.value, flags: event.flags,
                    what: .init(rawValue: event.changes), minimum: Int64(event.minimum), maximum: Int64(event.maximum),
                    step: UInt64(UInt32(bitPattern: event.step)), defaultValue: Int64(event.default_value),
                    time: Instant(seconds: event.seconds, microseconds: event.nanoseconds / 1000)))
        }
    }
}
