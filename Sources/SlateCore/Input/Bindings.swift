/// A profile's bindings as flat tables, for constant-time lookups on every event.
struct Bindings {
    /// Per input: for each EV_KEY code, `unbound`, `control`, a role, or
    /// `directBase + n` for the input's n-th direct binding.
    var keyTables: [[Int16]]
    /// Per input: the actions of buttons bound directly to actions.
    var directActions: [[[Step]]]
    /// Per input: for each EV_REL code, the index into `axisActions` plus one
    /// (0: unbound, `control`: the controls' knob).
    var axisTables: [[Int16]]
    var axisActions: [[[Step]]]
    /// Handlers by handling role and gesture.
    var handlers: [[Step]?]
    var remote: [Bool]

    static let unbound: Int16 = -1
    /// A button or axis bound to the capture controls' knob.
    static let control: Int16 = -2
    /// A button bound to preset slot n is `presetBase - n`.
    static let presetBase: Int16 = -100
    static let directBase: Int16 = 2
    static let keyCount = 0x300
    static let relCount = 0x10

    init(profile: Profile) {
        keyTables = []
        directActions = []
        axisTables = []
        axisActions = []
        remote = profile.inputs.map(\.remote)
        for input in profile.inputs {
            var keys = [Int16](repeating: Self.unbound, count: Self.keyCount)
            var direct: [[Step]] = []
            for (code, binding) in input.keys where Int(code) < Self.keyCount {
                switch binding {
                case .role(let role):
                    keys[Int(code)] = role == .primary ? 0 : 1
                case .actions(let steps):
                    keys[Int(code)] = Self.directBase + Int16(direct.count)
                    direct.append(steps)
                case .control:
                    keys[Int(code)] = Self.control
                case .preset(let slot):
                    keys[Int(code)] = Self.presetBase - Int16(slot)
                }
            }
            var axes = [Int16](repeating: 0, count: Self.relCount)
            var axisSteps: [[Step]] = []
            for (code, binding) in input.axes where Int(code) < Self.relCount {
                switch binding {
                case .actions(let steps):
                    axisSteps.append(steps)
                    axes[Int(code)] = Int16(axisSteps.count)
                case .control:
                    axes[Int(code)] = Self.control
                }
            }
            keyTables.append(keys)
            directActions.append(direct)
            axisTables.append(axes)
            axisActions.append(axisSteps)
        }
        handlers = []
        for role in Role.allCases {
            let table = profile.capture.handlers[role] ?? [:]
            for gesture in Gesture.allCases { handlers.append(table[gesture].flatMap { $0.isEmpty ? nil : $0 }) }
        }
    }

    func handler(_ role: Role, _ gesture: Gesture) -> [Step]? {
        handlers[(role == .primary ? 0 : Gesture.allCases.count) + Self.gestureIndex(gesture)]
    }

    private static func gestureIndex(_ gesture: Gesture) -> Int {
        switch gesture {
        case .click: 0
        case .hold: 1
        case .release: 2
        case .double: 3
        }
    }
}
