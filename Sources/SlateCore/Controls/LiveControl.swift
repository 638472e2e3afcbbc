/// The recorder settings' choices and ranges, as controls show them.
enum RecorderSettingValues {
    /// The longest preroll a control may set, in seconds.
    static let prerollLimit = 30.0

    /// The rates an fps control offers with the rig at `rate`: it and its partner, slower first.
    static func rates(around rate: FrameRate) -> [FrameRate] { ([rate] + (rate.partner.map { [$0] } ?? [])).sorted() }

    /// The item at index `value` of `items`, within them.
    private static func pick<Item>(_ items: [Item], _ value: Double) -> Item { items[min(max(Int(value), 0), items.count - 1)] }

    /// A picker's choices for `setting`, with the rig at `rate`.
    static func choices(_ setting: RecorderSetting, rate: FrameRate) -> [String] {
        switch setting {
        case .fps: rates(around: rate).map { "\($0) fps" }
        case .filter: ExportFilter.allCases.map(\.rawValue)
        case .camera: CameraPosition.allCases.map(\.rawValue)
        case .prompterSpeed: prompterSpeeds.map { "\(NumberText.format($0)) pt/s" }
        case .zoom, .preroll: []
        }
    }

    /// The speeds a picker on `prompter:speed` offers.
    static let prompterSpeeds: [Double] = [8, 12, 16, 20, 25, 30, 35, 40, 50, 60]

    /// The prompter's speed (the default without a prompter), or for a
    /// picker the index of the nearest speed it offers.
    static func prompterSpeed(in book: RigBook, picker: Bool) -> Double {
        let speed = book.prompter?.speed ?? PrompterSpec.defaultSpeed
        guard picker else { return speed }
        return Double(prompterSpeeds.indices.min { abs(prompterSpeeds[$0] - speed) < abs(prompterSpeeds[$1] - speed) } ?? 0)
    }

    /// A slider's values when the profile gives none.
    static func scale(_ setting: RecorderSetting, zoomLimit: Double, detent: Double, rate: FrameRate) -> ControlScale {
        switch setting {
        case .zoom: .continuous(1...zoomLimit, detent: (zoomLimit - 1) * detent)
        case .fps: .list(rates(around: rate).map(\.value))
        case .preroll: .stepped(0...10, step: 0.5)
        case .prompterSpeed: .stepped(Prompter.speeds, step: 1)
        case .filter, .camera: .titles(choices(setting, rate: rate))
        }
    }

    /// The setting's value in the books: for pickers the choice's index.
    static func value(_ setting: RecorderSetting, picker: Bool, in book: RigBook) -> Double {
        switch setting {
        case .zoom: book.zoom
        case .fps: picker ? Double(rates(around: book.fps).firstIndex(of: book.fps) ?? 0) : book.fps.value
        case .filter: Double(ExportFilter.allCases.firstIndex(of: book.filter) ?? 0)
        case .camera: Double(CameraPosition.allCases.firstIndex(of: book.position) ?? 0)
        case .preroll: Double(book.preroll.microseconds) / 1_000_000
        case .prompterSpeed: prompterSpeed(in: book, picker: picker)
        }
    }

    /// The command that sets the setting to `value` (an index for pickers), with the rig at `rate`.
    static func command(_ setting: RecorderSetting, picker: Bool, value: Double, rate: FrameRate) -> RecorderCommand {
        switch setting {
        case .zoom: .zoomSet(value)
        case .fps:
            .fpsSet(
                picker ? pick(rates(around: rate), value) : FrameRate(frames: Int64((value * 1000).rounded()), per: 1000).standard
            )
        case .filter: .filterSet(ExportFilter.allCases[Int(value)])
        case .camera: .cameraSet(CameraPosition.allCases[Int(value)])
        case .preroll: .prerollSet(.microseconds(Int64((value * 1_000_000).rounded())))
        case .prompterSpeed: .prompter(.speed(picker ? pick(prompterSpeeds, value) : value))
        }
    }
}

/// A control as a rig holds it: its profile entry, what it drives on the
/// camera it has now, its value, and whether it can be used.
struct LiveControl: Sendable {
    /// How the control's value reaches its target.
    enum Drive: Sendable, Equatable {
        case recorder(RecorderSetting)
        /// A V4L2 control: a slider's value is the control's, a picker's the index of its item.
        case v4l2(CameraControl)
        /// `Auto Exposure, Bias`, in 0.001 EV (an integer, or an integer menu).
        case exposureBias(CameraControl)
        /// `Exposure Time, Absolute`, scaled by 2^EV from `base`, its value when the slider first moved.
        case exposureTime(CameraControl, base: Int64?)
        /// Nothing to drive.
        case none
    }

    let spec: ControlSpec
    var scale: ControlScale = .list([0])
    var drive: Drive = .none
    var value = 0.0
    /// Why it cannot be used; nil when it can.
    var disabled: String? = "no camera yet"
    /// Sets sent to the camera whose answers have not come back.
    var pending = 0
    /// Whether the camera has been seen, so that changes of state are reported.
    var known = false

    var enabled: Bool { disabled == nil }
    var isPicker: Bool { if case .picker = spec.kind { true } else { false } }

    /// The value as the overlay shows it, through the profile's format.
    var text: String {
        let number: String
        switch spec.kind {
        case .zoom:
            return ControlFormat.render(spec.format ?? "%@×", ControlText.fixed(value, decimals: 1))
        case .exposureBias:
            return ControlFormat.render(spec.format ?? "%@ EV", ControlText.fixed(value, decimals: 1, signed: true))
        case .picker:
            guard case .titles(let titles) = scale, titles.indices.contains(Int(value)) else { return "" }
            return titles[Int(value)]
        case .slider:
            if case .list = scale {
                number = NumberText.format(value)
            } else {
                number = ControlText.fixed(value, decimals: scale.decimals)
            }
        }
        return ControlFormat.render(spec.format ?? "%@", number)
    }
}

/// The exposure bias slider's values: ±2 EV in thirds.
enum ExposureBias {
    static let values = (-6...6).map { Double($0) / 3 }

    /// The slider's values a camera's bias control can hold: its integer
    /// menu's items within ±2 EV, or the thirds within its range.
    static func values(of bias: CameraControl) -> [Double] {
        let held: [Double]
        if bias.kind == .integerMenu {
            held = bias.menu.compactMap { Int64($0.name) }.map { Double($0) / 1000 }.filter { abs($0) <= 2 }.sorted()
        } else {
            held = values.filter { Double(bias.minimum) <= $0 * 1000 && $0 * 1000 <= Double(bias.maximum) }
        }
        return held.isEmpty ? [0] : held
    }
    /// `V4L2_CID_EXPOSURE_AUTO`'s manual mode.
    static let manualMode: Int64 = 1
}

extension LiveControl {
    /// Finds what the control drives among the camera's controls (nil: no
    /// camera has told them) and the books, with its scale and value.
    mutating func resolve(catalog: [CameraControl.ID: CameraControl]?, book: RigBook, detent: Double) {
        disabled = nil
        known = catalog != nil || !needsCamera
        switch spec.kind {
        case .zoom:
            resolveRecorder(.zoom, values: nil, book: book, detent: detent)
        case .exposureBias:
            scale = .list(ExposureBias.values)
            resolveExposureBias(catalog)
        case .slider(let values):
            switch spec.target {
            case .recorder(let setting)?: resolveRecorder(setting, values: values, book: book, detent: detent)
            case .v4l2(let key)?: resolveSlider(key, values: values, catalog: catalog, detent: detent)
            case nil: disable("no target")
            }
        case .picker(let titles):
            switch spec.target {
            case .recorder(let setting)?:
                scale = .titles(titles ?? RecorderSettingValues.choices(setting, rate: book.fps))
                drive = .recorder(setting)
                value = RecorderSettingValues.value(setting, picker: true, in: book)
                if case .camera = setting, !book.hasCamera { disable("no camera") }
            case .v4l2(let key)?: resolvePicker(key, titles: titles, catalog: catalog)
            case nil: disable("no target")
            }
        }
    }

    /// Whether the control waits for a camera's controls to be known.
    private var needsCamera: Bool {
        switch spec.kind {
        case .exposureBias: true
        case .slider, .picker: if case .v4l2? = spec.target { true } else { false }
        case .zoom: false
        }
    }

    private mutating func disable(_ reason: String) {
        disabled = reason
        drive = .none
    }

    private mutating func resolveRecorder(
        _ setting: RecorderSetting, values: ControlSpec.SliderValues?, book: RigBook, detent: Double
    ) {
        drive = .recorder(setting)
        let limit = book.zoomLimit
        if let values {
            scale = Self.scale(values, detent: detent)
            if setting == .zoom, case .continuous(let range, let step) = scale {
                scale = .continuous(range.lowerBound...max(range.lowerBound, min(range.upperBound, limit)), detent: step)
            }
        } else {
            scale = RecorderSettingValues.scale(setting, zoomLimit: limit, detent: detent, rate: book.fps)
        }
        value = RecorderSettingValues.value(setting, picker: false, in: book)
        guard setting == .zoom else { return }
        if !book.hasCamera {
            disable("no camera")
        } else if case .streaming(let facts) = book.camera, !facts.zooms {
            disable("\(facts.name) is recorded as it comes (pass-through) and has no zoom")
        } else if limit <= 1 {
            disable("the camera does not zoom")
        }
    }

    private mutating func resolveSlider(
        _ key: String, values: ControlSpec.SliderValues?, catalog: [CameraControl.ID: CameraControl]?, detent: Double
    ) {
        guard let camera = Self.find(key, in: catalog, for: &self) else { return }
        switch camera.kind {
        case .integer, .integer64, .boolean: break
        default:
            disable("\(key) is a \(camera.kind.name) control: drive it with a picker")
            return
        }
        let range = Double(camera.minimum)...Double(max(camera.minimum, camera.maximum))
        if let values {
            scale = Self.scale(values, detent: detent)
        } else if camera.step > 1 {
            scale = .stepped(range, step: Double(camera.step))
        } else {
            let width = range.upperBound - range.lowerBound
            scale = .continuous(range, detent: max(1, (width * detent).rounded()))
        }
        drive = .v4l2(camera)
        value = Double(camera.value ?? camera.defaultValue)
        checkUsable(camera)
    }

    private mutating func resolvePicker(_ key: String, titles: [String]?, catalog: [CameraControl.ID: CameraControl]?) {
        guard let camera = Self.find(key, in: catalog, for: &self) else { return }
        let names: [String]
        switch camera.kind {
        case .menu, .integerMenu: names = camera.menu.map(\.name)
        case .boolean: names = ["off", "on"]
        default:
            disable("\(key) is a \(camera.kind.name) control, not a menu: drive it with a slider")
            return
        }
        if let titles, titles.count != names.count {
            scale = .titles(titles)
            disable("titles lists \(titles.count), but the camera's \(key) has \(names.count) items")
            return
        }
        scale = .titles(titles ?? names)
        drive = .v4l2(camera)
        value = value(ofRaw: camera.value ?? camera.defaultValue)
        checkUsable(camera)
    }

    /// Auto exposure's bias when the camera has it and exposes automatically;
    /// else, in manual exposure, the exposure time.
    private mutating func resolveExposureBias(_ catalog: [CameraControl.ID: CameraControl]?) {
        guard let catalog else {
            disable("no camera controls known")
            return
        }
        let byKey = { (key: String) in catalog.values.first { $0.key == key } }
        let automatic = byKey("auto_exposure").map { ($0.value ?? $0.defaultValue) != ExposureBias.manualMode } ?? true
        if let bias = byKey("auto_exposure_bias"), automatic, !bias.isReadOnly, !bias.isInactive {
            drive = .exposureBias(bias)
            scale = .list(ExposureBias.values(of: bias))
            value = value(ofRaw: bias.value ?? bias.defaultValue)
        } else if let time = byKey("exposure_time_absolute"), !time.isReadOnly, !time.isInactive {
            if case .exposureTime(let old, let base) = drive, old.id == time.id {
                drive = .exposureTime(time, base: base)
            } else {
                drive = .exposureTime(time, base: nil)
                value = 0
            }
        } else {
            disable(
                automatic
                    ? "the camera has no exposure bias, and its exposure is automatic"
                    : "the camera's exposure time cannot be set")
        }
    }

    private static func find(_ key: String, in catalog: [CameraControl.ID: CameraControl]?, for control: inout LiveControl)
        -> CameraControl?
    {
        guard let catalog else {
            control.disable("no camera controls known")
            return nil
        }
        guard let camera = catalog.values.first(where: { $0.key == key }) else {
            control.disable("the camera has no control \(key)")
            return nil
        }
        return camera
    }

    private mutating func checkUsable(_ camera: CameraControl) {
        if camera.isReadOnly {
            disabled = "\(camera.key) is read-only"
        } else if camera.isInactive {
            disabled = "\(camera.key) is inactive"
        } else if camera.isGrabbed {
            disabled = "\(camera.key) is in use while streaming"
        }
    }

    private static func scale(_ values: ControlSpec.SliderValues, detent: Double) -> ControlScale {
        switch values {
        case .continuous(let range): .continuous(range, detent: (range.upperBound - range.lowerBound) * detent)
        case .stepped(let range, let step): .stepped(range, step: step)
        case .explicit(let list): .list(list)
        }
    }

    /// Whether the control sets the camera's control `id`.
    func drives(_ id: CameraControl.ID) -> Bool {
        switch drive {
        case .v4l2(let camera), .exposureBias(let camera), .exposureTime(let camera, _): camera.id == id
        case .recorder, .none: false
        }
    }

    /// The control's value for the camera control's raw value `raw`.
    func value(ofRaw raw: Int64) -> Double {
        switch drive {
        case .v4l2(let camera):
            guard isPicker else { return Double(raw) }
            if camera.kind == .boolean { return raw == 0 ? 0 : 1 }
            return Double(camera.menu.firstIndex { $0.index == raw } ?? 0)
        case .exposureBias(let camera):
            let millis = camera.kind == .integerMenu ? Double(camera.menuName(of: raw).flatMap { Int64($0) } ?? 0) : Double(raw)
            return scale.snapped(millis / 1000)
        case .exposureTime(let camera, let base):
            let base = Double(base ?? camera.value ?? camera.defaultValue)
            guard base > 0, raw > 0 else { return value }
            var ratio = Double(raw) / base, thirds = 0
            while ratio >= ExposureBias.halfThird, thirds < 6 {
                ratio /= ExposureBias.third
                thirds += 1
            }
            while ratio < 1 / ExposureBias.halfThird, thirds > -6 {
                ratio *= ExposureBias.third
                thirds -= 1
            }
            return Double(thirds) / 3
        case .recorder, .none:
            return value
        }
    }

    /// The raw value the camera control is set to for `value`.
    func raw(_ value: Double) -> Int64 {
        switch drive {
        case .v4l2(let camera):
            guard isPicker else { return Int64(value.rounded()) }
            if camera.kind == .boolean { return value >= 1 ? 1 : 0 }
            let items = camera.menu
            return items.isEmpty ? Int64(value) : items[min(max(Int(value), 0), items.count - 1)].index
        case .exposureBias(let camera):
            let millis = Int64((value * 1000).rounded())
            guard camera.kind == .integerMenu, !camera.menu.isEmpty else {
                return min(max(millis, camera.minimum), camera.maximum)
            }
            return camera.menu.min { abs((Int64($0.name) ?? 0) - millis) < abs((Int64($1.name) ?? 0) - millis) }!.index
        case .exposureTime(let camera, let base):
            let base = Double(base ?? camera.value ?? camera.defaultValue)
            var factor = 1.0
            let thirds = Int((value * 3).rounded())
            for _ in 0..<thirds.magnitude { factor = thirds > 0 ? factor * ExposureBias.third : factor / ExposureBias.third }
            return min(max(Int64((base * factor).rounded()), camera.minimum), camera.maximum)
        case .recorder, .none:
            return Int64(value.rounded())
        }
    }

    /// `value` as a V4L2 slider's integer control can hold it; the driver
    /// keeps it within its range and on its step, and says what it kept.
    func quantized(_ value: Double) -> Double {
        guard case .v4l2 = drive, !isPicker else { return value }
        return value.rounded()
    }
}

extension ExposureBias {
    /// 2^(1/3): one third of a stop.
    static let third = 1.2599210498948732
    /// 2^(1/6): halfway from one third of a stop to the next, as a ratio.
    static let halfThird = 1.122462048309373
}
