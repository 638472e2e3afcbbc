import Logging
import SlateCore
import SlateSystem
import SlateDevices
import SlateMedia

/// The camera's one owner: a thread that streams its frames into the take
/// pipeline and carries out everything else asked of it, in order, from its
/// mailbox: opening, switching to another camera or rate, the zoom control,
/// the torch, closing. Only this thread makes V4L2 calls on the camera. What
/// comes of each request reaches the pipeline in line with the frames, and
/// from there the rig, as `TakeRecorder.Event`s.
final class CameraSession: Sendable {
    enum Letter: Sendable {
        case open(CameraOpening)
        /// Switch camera or rate; a take in progress splits at `splitAt`.
        case switchTo(CameraOpening, splitAt: Instant?)
        /// Set the camera's zoom control.
        case zoom(Int64)
        case torch(Bool)
        case close
        case shutdown
    }

    private let mailbox: Mailbox<[Letter]>
    private let thread: WorkerThread

    /// Starts the session's thread, streaming `source` (when given) into `pipeline`.
    init(
        pipeline: Mailbox<TakeRecorder.Inbox>, source: sending FrameSource?, opener: sending CameraOpener?, logger: Logger
    ) throws(OperationError) {
        let mailbox = try Mailbox<[Letter]>()
        self.mailbox = mailbox
        let owner = CameraOwner(mailbox: mailbox, pipeline: pipeline, opener: opener, logger: logger)
        thread = try WorkerThread(name: "slate-camera", niceness: CameraOwner.niceness) {
            owner.run(streaming: source)
        }
    }

    func open(_ opening: CameraOpening) { mailbox.post(Letter.open(opening)) }

    func switchTo(_ opening: CameraOpening, splitAt: Instant?) { mailbox.post(Letter.switchTo(opening, splitAt: splitAt)) }

    func torch(_ on: Bool) { mailbox.post(Letter.torch(on)) }

    func close() { mailbox.post(Letter.close) }

    /// Stops streaming, releases the camera and ends the thread.
    func shutdown() {
        mailbox.post(Letter.shutdown)
        thread.join()
    }
}

/// What the camera session's thread holds: the source streaming, its camera,
/// and how it was opened.
private final class CameraOwner {
    /// The camera thread's nice value, where it may have it: ahead of the
    /// encoder's threads when the machine is busy, so buffers go back at once.
    static let niceness: Int32 = -10

    private let mailbox: Mailbox<[CameraSession.Letter]>
    private let pipeline: Mailbox<TakeRecorder.Inbox>
    private let opener: CameraOpener?
    private let log: Logger
    private var source: FrameSource?
    private var opened: OpenedCamera?
    private var opening: CameraOpening?

    init(
        mailbox: Mailbox<[CameraSession.Letter]>, pipeline: Mailbox<TakeRecorder.Inbox>, opener: CameraOpener?,
        logger: Logger
    ) {
        self.mailbox = mailbox
        self.pipeline = pipeline
        self.opener = opener
        log = logger
    }

    func run(streaming initial: FrameSource?) {
        initial?.adopt()
        source = initial
        while true {
            for letter in mailbox.letters() {
                guard carryOut(letter) else {
                    release()
                    return
                }
            }
            guard let source else {
                mailbox.wait()
                continue
            }
            do {
                switch try source.next(orMail: mailbox.bell) {
                case .capture(let capture): pipeline.post { $0.backlog.push(.capture(capture), at: capture.time) }
                case .mail: continue
                // The session subscribes to no control events yet: changes read are let go.
                case .controls: continue
                case .ended: stop(saying: nil)
                }
            } catch {
                stop(saying: "\(error)")
            }
        }
    }

    /// Carries out one request; false once the session is to end.
    private func carryOut(_ letter: CameraSession.Letter) -> Bool {
        switch letter {
        case .open(let opening): open(opening)
        case .switchTo(let opening, let splitAt):
            switchTo(opening, splitAt: splitAt)
            pipeline.post { $0.backlog.push(.switched, at: MonotonicClock.now(), pinned: true) }
        case .zoom(let value): setZoom(value)
        case .torch(let on): setTorch(on)
        case .close: stop(saying: nil)
        case .shutdown: return false
        }
        return true
    }

    private func open(_ wanted: CameraOpening) {
        guard source == nil, let opener else { return }
        do {
            let camera = try opener.open(wanted)
            use(camera, as: wanted, saying: .cameraOpened(camera.facts), startAt: nil)
        } catch {
            say(.cameraOpenFailed("\(error)"))
        }
    }

    /// Opens the camera `wanted` says instead of the one streaming. When it
    /// cannot be opened the old one streams on, and the rig hears why; when
    /// neither can, the camera is lost.
    private func switchTo(_ wanted: CameraOpening, splitAt: Instant?) {
        guard let opener, let current = opening, let kept = opened?.facts else { return }
        let present = CameraDirectory.present()
        if wanted.position != current.position, !opener.isPresent(wanted, among: present) {
            say(.cameraSwitchFailed("no \(wanted.position.rawValue) camera is present", keeping: kept, unsplit: splitAt != nil))
            return
        }
        release()
        do {
            let camera = try opener.open(wanted, present: present)
            use(camera, as: wanted, saying: .cameraOpened(camera.facts), startAt: splitAt)
        } catch {
            log.warning("\(error); keeping the \(kept.position.rawValue) camera at \(kept.fps) fps")
            do {
                let again = try opener.open(current, present: present)
                use(again, as: current, saying: .cameraSwitchFailed("\(error)", keeping: again.facts, unsplit: false), startAt: splitAt)
            } catch {
                pipeline.post { $0.backlog.push(.end(lost: "\(error)"), at: MonotonicClock.now(), pinned: true) }
            }
        }
    }

    /// Streams `camera` from now; the pipeline reports `said` once the take
    /// before it closed.
    private func use(_ camera: OpenedCamera, as wanted: CameraOpening, saying said: TakeRecorder.Event, startAt: Instant?) {
        var stream = camera.stream
        if let control = camera.zoomControl {
            // The camera's zoom range mapped onto 1x-6x, set by this thread.
            let mailbox = self.mailbox
            let (minimum, maximum) = (control.minimum, control.maximum)
            stream.cameraZoom = { factor in
                let span = Double(maximum - minimum)
                mailbox.post(CameraSession.Letter.zoom(minimum + Int64(((factor - 1) / (ZoomRamp.limit - 1) * span).rounded())))
            }
        }
        opened = camera
        opening = wanted
        source = camera.source
        pipeline.post { $0.backlog.push(.stream(stream, said: said, startAt: startAt), at: MonotonicClock.now(), pinned: true) }
    }

    /// Stops streaming: the pipeline closes a take in progress and reports
    /// the camera lost (with `reason`) or closed.
    private func stop(saying reason: String?) {
        guard source != nil else { return }
        release()
        pipeline.post { $0.backlog.push(.end(lost: reason), at: MonotonicClock.now(), pinned: true) }
    }

    /// Closes the source and the device.
    private func release() {
        source?.close()
        source = nil
        opened = nil
    }

    private func setZoom(_ value: Int64) {
        guard let camera = opened?.camera else { return }
        do {
            _ = try camera.set(.zoomAbsolute, value)
        } catch {
            log.warning("zoom: \(error)")
        }
    }

    /// Sets the camera's flash LED to torch mode (2) or off (0).
    private func setTorch(_ on: Bool) {
        guard let opened else { return }
        if let camera = opened.camera, CameraOpener.hasTorch(camera), (try? camera.set(.flashLEDMode, on ? 2 : 0)) != nil {
            return
        }
        say(.failed("\(opened.facts.name): the torch could not be turned \(on ? "on" : "off")"))
    }

    /// Tells the pipeline something to report in line with the frames.
    private func say(_ event: TakeRecorder.Event) {
        pipeline.post { $0.backlog.push(.event(event), at: MonotonicClock.now(), pinned: true) }
    }
}
