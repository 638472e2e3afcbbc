/// A camera's controls as a model, for a rig without its camera (`slate
/// replay`): a set is kept as drivers keep it (clamped to the range, on the
/// step's grid, a menu item that exists), and an automatic mode makes its
/// manual partner inactive, as UVC cameras and vivid do. It answers with the
/// facts a camera session reports.
public struct ModelledCamera: Sendable {
    public private(set) var controls: [CameraControl]
    /// Its presets, kept in memory.
    public private(set) var presets: [Int: [PresetValue]] = [:]

    public init(controls: [CameraControl]) {
        self.controls = controls
    }

    /// Sets control `id` to `value`, as `VIDIOC_S_EXT_CTRLS` would.
    public mutating func set(_ id: CameraControl.ID, _ value: Int64) -> [RigFact] {
        guard let index = controls.firstIndex(where: { $0.id == id }) else {
            return [.controlFailed(id, "the camera has no control \(id)")]
        }
        let control = controls[index]
        if control.isReadOnly { return [.controlFailed(id, "\(control.key) is read-only")] }
        guard let kept = Self.kept(value, by: control) else {
            return [.controlFailed(id, "\(control.key) has no item \(value)")]
        }
        let changed = store(kept, at: index)
        var facts: [RigFact] = [.controlSet(id, asked: value, kept: kept)]
        if !changed.isEmpty { facts.append(.cameraControls(changed, source: .camera)) }
        return facts
    }

    /// Saves or loads a preset, answering as a camera session does.
    public mutating func carryOut(_ command: PresetCommand) -> [RigFact] {
        switch command {
        case .save(let slot):
            let values = PresetValue.of(controls)
            presets[slot] = values
            return [.presetSaved(slot: slot, controls: values.count)]
        case .load(let slot):
            guard let values = presets[slot] else { return [.presetFailed(slot: slot, "slot \(slot) is empty")] }
            let settings = values.map { CameraSetting(key: $0.key, value: .number($0.value)) }
            let (sets, problems) = CameraSetting.plan(settings, on: controls)
            var outcomes = problems
            var changed: [CameraControl] = []
            for (control, value) in sets {
                guard let index = controls.firstIndex(where: { $0.id == control.id }), let kept = Self.kept(value, by: control)
                else {
                    outcomes.append(
                        SettingOutcome(key: control.key, asked: String(value), problem: "\(control.key) has no item \(value)"))
                    continue
                }
                changed += store(kept, at: index, including: true)
                let text = control.menuName(of: kept) ?? String(kept)
                outcomes.append(SettingOutcome(key: control.key, asked: String(value), kept: kept, keptText: text))
            }
            return [.settingsApplied(outcomes, source: .preset), .cameraControls(changed, source: .camera)]
        }
    }

    /// Another program (or the camera itself) set the control named `key`.
    public mutating func changeFromOutside(_ key: String, to value: Int64) -> [RigFact] {
        guard let index = controls.firstIndex(where: { $0.key == key }),
            let kept = Self.kept(value, by: controls[index])
        else { return [] }
        return [.cameraControls(store(kept, at: index, including: true), source: .external)]
    }

    /// Stores `value` and updates its partners; the controls that changed
    /// besides it, or with it when `including`.
    private mutating func store(_ value: Int64, at index: Int, including: Bool = false) -> [CameraControl] {
        controls[index].value = value
        var changed = including ? [controls[index]] : []
        for cluster in Self.clusters where cluster.automatic == controls[index].key {
            let manual = cluster.manual(value)
            for partner in controls.indices where cluster.partners.contains(controls[partner].key) {
                let flags =
                    manual
                    ? controls[partner].flags & ~CameraControl.Flag.inactive
                    : controls[partner].flags | CameraControl.Flag.inactive
                guard flags != controls[partner].flags else { continue }
                controls[partner].flags = flags
                changed.append(controls[partner])
            }
        }
        return changed
    }

    /// What a driver keeps of `value`: nil for a menu item that does not exist.
    static func kept(_ value: Int64, by control: CameraControl) -> Int64? {
        switch control.kind {
        case .menu, .integerMenu:
            return control.menu.contains { $0.index == value } ? value : nil
        case .boolean:
            return value == 0 ? 0 : 1
        default:
            let clamped = min(max(value, control.minimum), control.maximum)
            let step = Int64(max(1, min(control.step, UInt64(Int64.max))))
            let steps = (clamped - control.minimum + step / 2) / step
            return min(control.minimum + steps * step, control.maximum)
        }
    }

    /// An automatic mode and the manual controls it makes inactive.
    struct Cluster {
        var automatic: String
        /// Whether a value of the automatic control leaves the partners to the user.
        var manual: @Sendable (Int64) -> Bool
        var partners: [String]
    }

    static let clusters: [Cluster] = [
        Cluster(automatic: "white_balance_automatic", manual: { $0 == 0 }, partners: ["white_balance_temperature"]),
        Cluster(automatic: "auto_exposure", manual: { $0 == 1 || $0 == 2 }, partners: ["exposure_time_absolute"]),
        Cluster(automatic: "gain_automatic", manual: { $0 == 0 }, partners: ["gain"]),
        Cluster(automatic: "focus_automatic_continuous", manual: { $0 == 0 }, partners: ["focus_absolute"]),
    ]
}
