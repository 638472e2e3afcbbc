/// Runs action lists (handlers and expanded macros): recorder and camera
/// commands are answered by the rig's books, sounds and programs become effects.
///
/// A list runs until a `wait`, then resumes when the caller fires timers past
/// it; several lists can be waiting at once. Actions started by a remote input's
/// gesture get audible feedback: `begin-video-recording` when a take starts,
/// `end-video-recording` when one stops, `shutter` for any other recorder
/// action, at most one sound per list and instant.
struct MacroRunner {
    private struct Program {
        var steps: [Step]
        var next: Int
        var resume: Instant
        var order: Int
        var trigger: TriggerInfo?
        var source: String?
        var value: Double?
        var feedback: Bool
        var lastSound: Instant?
    }

    private let sounds: SoundSpec
    private var waiting: [Program] = []
    private var started = 0

    init(sounds: SoundSpec) {
        self.sounds = sounds
    }

    var nextDeadline: Instant? { waiting.first?.resume }

    /// Runs `steps` from `time`. `feedback` asks for the remote feedback sounds;
    /// `value` is an axis delta; `source` names where steps no button ran came from.
    mutating func run(
        _ steps: [Step], trigger: TriggerInfo?, source: String? = nil, value: Double?, feedback: Bool, at time: Instant,
        book: inout RigBook, deck: inout ControlDeck, into out: inout [RigEffect]
    ) {
        started += 1
        var program = Program(
            steps: steps, next: 0, resume: time, order: started, trigger: trigger, source: source, value: value,
            feedback: feedback && sounds.feedback, lastSound: nil)
        execute(&program, book: &book, deck: &deck, into: &out)
    }

    /// Resumes every list whose wait ends at or before `time`, in time order.
    mutating func fireTimers(upTo time: Instant, book: inout RigBook, deck: inout ControlDeck, into out: inout [RigEffect]) {
        while let first = waiting.first, first.resume <= time {
            var program = waiting.removeFirst()
            execute(&program, book: &book, deck: &deck, into: &out)
        }
    }

    private mutating func execute(
        _ program: inout Program, book: inout RigBook, deck: inout ControlDeck, into out: inout [RigEffect]
    ) {
        let time = program.resume
        while program.next < program.steps.count {
            let step = program.steps[program.next]
            program.next += 1
            var report = ActionReport(
                time: time, action: step.action, value: nil, macro: step.macro, trigger: program.trigger,
                outcome: nil, source: program.source, environment: [])
            switch step.action {
            case .wait(let duration):
                out.append(.report(.action(report)))
                program.resume = time + duration
                schedule(program)
                return
            case .sound(let name):
                out.append(.report(.action(report)))
                play(SoundReport(time: time, sound: name, file: sounds.files[name], input: program.trigger?.input), into: &out)
            case .exec(let argv):
                report.environment = ExecEnvironment.event(
                    trigger: program.trigger, value: program.value, macro: step.macro, recording: book.isRecording)
                out.append(.report(.action(report)))
                out.append(.exec(argv: argv, environment: report.environment, at: time))
            case .control(let action):
                if case .adjust(nil) = action { report.value = program.value ?? 1 }
                out.append(.report(.action(report)))
                deck.perform(action, value: program.value, at: time, book: &book, into: &out)
            case .presetLoad(let slot), .presetSave(let slot):
                out.append(.report(.action(report)))
                if case .presetSave = step.action {
                    deck.savePreset(slot, at: time, into: &out)
                } else {
                    deck.loadPreset(slot, at: time, into: &out)
                }
            case .rigs(let action):
                out.append(.report(.action(report)))
                var text = action.text
                if text == Action.takeToggle.name { text = book.isRecording ? Action.takeStop.name : Action.takeStart.name }
                out.append(.rigs(RigsCommand(target: action.target, text: text), at: time))
            case .obs(let request):
                out.append(.report(.action(report)))
                out.append(.obs(request, at: time))
            case .takeToggle:
                perform(book.isRecording ? .stop : .start, &report, &program, book: &book, into: &out)
            case .zoomStep(let amount):
                let steps = (amount ?? 1) * (program.value ?? 1)
                report.value = steps
                perform(.zoomStep(steps), &report, &program, book: &book, into: &out)
            default:
                if let command = step.action.recorderCommand { perform(command, &report, &program, book: &book, into: &out) }
            }
            // A setting an action changed (`zoom.set 2.5` from the page) shows on its control's card too.
            deck.follow(book)
        }
    }

    private mutating func perform(
        _ command: RecorderCommand, _ report: inout ActionReport, _ program: inout Program, book: inout RigBook,
        into out: inout [RigEffect]
    ) {
        let outcome = book.answer(command, at: report.time, into: &out)
        report.outcome = outcome
        out.append(.report(.action(report)))
        guard program.feedback, program.lastSound != report.time else { return }
        let sound: String
        switch outcome {
        case .ignored: return
        case .started: sound = "begin-video-recording"
        case .stopped: sound = "end-video-recording"
        default: sound = "shutter"
        }
        program.lastSound = report.time
        play(SoundReport(time: report.time, sound: sound, file: sounds.files[sound], input: program.trigger?.input), into: &out)
    }

    /// A sound's report line, then the sound.
    private func play(_ sound: SoundReport, into out: inout [RigEffect]) {
        out.append(.report(.sound(sound)))
        out.append(.play(sound))
    }

    private mutating func schedule(_ program: Program) {
        let index = waiting.firstIndex { ($0.resume, $0.order) > (program.resume, program.order) } ?? waiting.count
        waiting.insert(program, at: index)
    }
}

enum NumberText {
    /// `3`, `-1`, `0.25`: integers without a fraction, others with up to six
    /// decimals; huge magnitudes as Swift writes them (`1e+300`).
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        guard abs(value) < 1e12 else { return "\(value)" }
        let micros = Int64((value * 1_000_000).rounded())
        var text = Instant.formatSeconds(micros, decimals: 6)
        while text.last == "0" { text.removeLast() }
        return text
    }
}
