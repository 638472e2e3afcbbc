import SlateYAML

/// The `prompter` section: the script and how it scrolls.
extension ProfileParser {
    mutating func parsePrompter(_ node: YAMLNode) -> PrompterSpec? {
        guard let pairs = reader.mapping(node, "prompter") else { return nil }
        reader.checkKeys(pairs, allowed: ["script", "speed", "font", "mirror", "end", "start", "edit", "width"], in: "prompter")
        guard let (_, _, scriptNode) = pairs.first(where: { $0.key == "script" }) else {
            reader.error(node, "prompter needs a script: a plain text or Markdown file, such as script.md")
            return nil
        }
        guard let script = reader.string(scriptNode, "prompter.script"), !script.isEmpty else { return nil }
        var spec = PrompterSpec(script: script)
        for (key, _, value) in pairs {
            switch key {
            case "speed": spec.speed = reader.number(value, "prompter.speed", in: Prompter.speeds) ?? spec.speed
            case "font": spec.font = reader.number(value, "prompter.font", in: PrompterSpec.fonts) ?? spec.font
            case "mirror": spec.mirror = reader.bool(value, "prompter.mirror") ?? false
            case "end":
                spec.end = reader.choice(value, "prompter.end", PrompterSpec.End.allCases.map { ($0.rawValue, $0) }) ?? .pause
            case "start":
                spec.start = reader.choice(value, "prompter.start", PrompterSpec.Start.allCases.map { ($0.rawValue, $0) }) ?? .cue
            case "edit": spec.editable = reader.bool(value, "prompter.edit") ?? true
            case "width": spec.width = reader.integer(value, "prompter.width", in: PrompterSpec.widths) ?? spec.width
            default: break
            }
        }
        return spec
    }
}
