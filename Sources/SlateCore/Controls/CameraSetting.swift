/// One entry of `camera.settings`: a V4L2 control, by its key, and the value
/// it is to have whenever the camera opens and each take starts.
public struct CameraSetting: Sendable, Equatable {
    /// A number, or a menu item's name.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case number(Int64)
        case item(String)

        public var description: String {
            switch self {
            case .number(let number): String(number)
            case .item(let name): name
            }
        }
    }

    public var key: String
    public var value: Value

    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }

    /// The sets `settings` make on a camera with `controls`, in order:
    /// automatic modes first (their manual partners take a value only once
    /// the mode allows it), then the others as the profile lists them; and
    /// what cannot be set, with why.
    public static func plan(_ settings: [CameraSetting], on controls: [CameraControl])
        -> (sets: [(control: CameraControl, value: Int64)], problems: [SettingOutcome])
    {
        var sets: [(control: CameraControl, value: Int64)] = []
        var problems: [SettingOutcome] = []
        for setting in settings {
            guard let control = controls.first(where: { $0.key == setting.key }) else {
                problems.append(
                    SettingOutcome(
                        key: setting.key, asked: setting.value.description, problem: "the camera has no control \(setting.key)"))
                continue
            }
            switch setting.value {
            case .number(let number):
                sets.append((control, number))
            case .item(let name):
                guard let item = control.menu.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    let items = control.menu.map(\.name).joined(separator: ", ")
                    problems.append(
                        SettingOutcome(
                            key: setting.key, asked: name,
                            problem: "\(setting.key) has no item '\(name)'" + (items.isEmpty ? "" : " (items: \(items))")))
                    continue
                }
                sets.append((control, item.index))
            }
        }
        let modes = sets.filter { $0.control.updatesOthers }
        return (modes + sets.filter { !$0.control.updatesOthers }, problems)
    }
}

/// What became of one camera setting: the value asked, the value the driver
/// kept (it clamps to its range and step), or why it was not set.
public struct SettingOutcome: Sendable, Equatable {
    public var key: String
    public var asked: String
    public var kept: Int64?
    /// The kept value as the control names it: a menu item, or the number.
    public var keptText: String?
    public var problem: String?

    public init(key: String, asked: String, kept: Int64? = nil, keptText: String? = nil, problem: String? = nil) {
        self.key = key
        self.asked = asked
        self.kept = kept
        self.keptText = keptText
        self.problem = problem
    }
}
