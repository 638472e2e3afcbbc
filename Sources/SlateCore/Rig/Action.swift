/// One action of Slate's vocabulary, as profiles name them.
public enum Action: Hashable, Sendable {
    case takeStart
    case takeStop
    case takeToggle
    case takeDeleteLast
    /// Delete a finished take: by its number (from 1, as the take list counts them) or its file.
    case takeDelete(TakeChoice)
    /// Bring a take back from the trash: the last deleted, or the one whose file this names.
    case takeUndelete(String?)
    /// Mark the moment in the take that records, with a name or none.
    case takeMark(String?)
    /// Export every finished take into one video, through this filter or (nil) the rig's.
    case takesExport(ExportFilter?)
    /// Zoom by a number of steps: a fixed amount, or (nil) the delta of the axis that ran it.
    case zoomStep(Double?)
    case zoomSet(Double)
    case fpsToggle
    case cameraToggle
    case torchToggle
    case filterNext
    case sound(String)
    case wait(Duration)
    /// A program and its arguments; never a shell string.
    case exec([String])
    /// Something asked of the capture controls (`control.show`, `control.adjust 2`, ...).
    case control(ControlAction)
    /// Load or save a slot of the camera's presets.
    case presetLoad(Int)
    case presetSave(Int)
    /// Something asked of the teleprompter (`prompter.pause`, `prompter.back 5`, ...).
    case prompter(PrompterAction)
    /// An action sent to other rigs through the broker (`rigs take.start`, `rig cam-b zoom.set 2`).
    case rigs(RigsAction)
    /// An obs-websocket request for every OBS of the profile (`obs StartRecord`).
    case obs(OBSRequest)

    /// Whether it sends something to other rigs (`rigs`, `rig`).
    public var sendsOn: Bool {
        if case .rigs = self { true } else { false }
    }

    /// Whether it runs a program (`exec`).
    public var runsProgram: Bool {
        if case .exec = self { true } else { false }
    }

    /// The name a profile uses, e.g. `take.toggle`.
    public var name: String {
        switch self {
        case .takeStart: "take.start"
        case .takeStop: "take.stop"
        case .takeToggle: "take.toggle"
        case .takeDeleteLast: "take.delete-last"
        case .takeDelete: "take.delete"
        case .takeUndelete: "take.undelete"
        case .takeMark: "take.mark"
        case .takesExport: "takes.export"
        case .zoomStep: "zoom.step"
        case .zoomSet: "zoom.set"
        case .fpsToggle: "fps.toggle"
        case .cameraToggle: "camera.toggle"
        case .torchToggle: "torch.toggle"
        case .filterNext: "filter.next"
        case .sound: "sound"
        case .wait: "wait"
        case .exec: "exec"
        case .control(let action):
            switch action {
            case .show: "control.show"
            case .next: "control.next"
            case .previous: "control.previous"
            case .adjust: "control.adjust"
            case .set: "control.set"
            case .reset: "control.reset"
            }
        case .presetLoad: "preset.load"
        case .presetSave: "preset.save"
        case .prompter(let action):
            switch action {
            case .pause: "prompter.pause"
            case .faster: "prompter.faster"
            case .slower: "prompter.slower"
            case .speed: "prompter.speed"
            case .back: "prompter.back"
            case .top: "prompter.top"
            case .nextCue: "prompter.next-cue"
            case .previousCue: "prompter.previous-cue"
            }
        case .rigs(let action):
            switch action.target {
            case .every: "rigs"
            case .rig: "rig"
            }
        case .obs: "obs"
        }
    }

    /// Actions written as a bare name, without an argument.
    public static let bareNames: [String: Action] = [
        "take.start": .takeStart, "take.stop": .takeStop, "take.toggle": .takeToggle,
        "take.delete-last": .takeDeleteLast, "take.undelete": .takeUndelete(nil), "take.mark": .takeMark(nil),
        "takes.export": .takesExport(nil),
        "zoom.step": .zoomStep(nil),
        "fps.toggle": .fpsToggle, "camera.toggle": .cameraToggle, "torch.toggle": .torchToggle,
        "filter.next": .filterNext, "control.show": .control(.show), "control.next": .control(.next),
        "control.previous": .control(.previous), "control.adjust": .control(.adjust(nil)),
        "prompter.pause": .prompter(.pause), "prompter.faster": .prompter(.faster),
        "prompter.slower": .prompter(.slower), "prompter.top": .prompter(.top),
        "prompter.next-cue": .prompter(.nextCue), "prompter.previous-cue": .prompter(.previousCue),
    ]

    /// Actions that take an argument: `zoom.set 2`, `zoom.step 0.5`, `sound shutter`,
    /// `wait 200ms`, `exec [argv]`, `control.adjust 2`, `control.set NAME VALUE`, `control.reset NAME`,
    /// `take.delete 3`, `take.undelete take-….mp4`, `takes.export mono`, `rigs take.start`, `rig cam-b zoom.set 2`, `obs StartRecord`.
    public static let argumentNames: Set<String> = [
        "take.delete", "take.undelete", "take.mark", "takes.export", "zoom.set", "zoom.step", "sound", "wait", "exec",
        "control.adjust",
        "control.set",
        "control.reset",
        "preset.load", "preset.save", "prompter.back", "rigs", "rig", "obs",
    ]

    /// The recorder operation behind this action, if it is one.
    var recorderCommand: RecorderCommand? {
        switch self {
        case .takeStart: .start
        case .takeStop: .stop
        case .takeDeleteLast: .deleteLast
        case .takeDelete(let choice): .delete(choice)
        case .takeUndelete(let file): .undelete(file)
        case .takeMark(let name): .mark(name)
        case .takesExport(let filter): .export(filter)
        case .zoomSet(let factor): .zoomSet(factor)
        case .fpsToggle: .fpsToggle
        case .cameraToggle: .cameraToggle
        case .torchToggle: .torchToggle
        case .filterNext: .filterNext
        case .prompter(let action): .prompter(action)
        case .takeToggle, .zoomStep, .sound, .wait, .exec, .control, .presetLoad, .presetSave, .rigs, .obs: nil
        }
    }
}

/// An action as the runner executes it: macros are expanded when the profile
/// is loaded, and each step remembers the macro it came from.
public struct Step: Hashable, Sendable {
    public var action: Action
    public var macro: String?

    public init(_ action: Action, macro: String? = nil) {
        self.action = action
        self.macro = macro
    }
}
