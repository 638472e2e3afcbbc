import SlateYAML

/// The `camera` and `sounds` sections.
extension ProfileParser {
    mutating func parseCamera(_ node: YAMLNode) -> CameraSpec {
        var camera = CameraSpec()
        guard let pairs = reader.mapping(node, "camera") else { return camera }
        reader.checkKeys(
            pairs,
            allowed: [
                "back", "front", "position", "fps", "max-size", "codec", "passthrough", "orientation", "mirror",
                "preroll", "work", "output", "takes-access", "filter", "start", "wait-for-camera", "settings",
                "trash-hours", "clean-up", "export-name", "proxy", "memory-limit",
            ], in: "camera")
        for (key, _, value) in pairs {
            switch key {
            case "back", "front":
                camera.candidates[CameraPosition(rawValue: key)!] = reader.strings(value, key)
            case "position":
                camera.position = reader.choice(value, key, CameraPosition.allCases.map { ($0.rawValue, $0) }) ?? .back
            case "fps": camera.fps = reader.choice(value, key, FrameRate.offered.map { ($0.description, $0) }) ?? camera.fps
            case "max-size": camera.maxSize = parseSize(value)
            case "codec":
                let codecs = reader.strings(value, key) ?? []
                for codec in codecs where !["hevc", "h264"].contains(codec) {
                    reader.error(value, "unknown codec '\(codec)' (expected hevc or h264)")
                }
                if !codecs.isEmpty { camera.codecs = codecs }
            case "passthrough": camera.passthrough = reader.bool(value, key) ?? camera.passthrough
            case "orientation":
                camera.orientation = reader.choice(value, key, [("0", 0), ("90", 90), ("180", 180), ("270", 270)]) ?? 0
            case "mirror": camera.mirror = reader.bool(value, key)
            case "preroll": camera.preroll = reader.duration(value, key, allowZero: true) ?? .zero
            case "work": camera.work = reader.string(value, key)
            case "output": camera.output = reader.string(value, key)
            case "takes-access":
                camera.takesAccess = reader.choice(value, key, TakeAccess.allCases.map { ($0.rawValue, $0) }) ?? .private
            case "filter":
                camera.filter = reader.choice(value, key, ExportFilter.allCases.map { ($0.rawValue, $0) }) ?? .none
            case "start":
                camera.startOnInput = reader.choice(value, key, [("run", false), ("first-input", true)]) ?? false
            case "wait-for-camera": camera.waitForCamera = reader.bool(value, key) ?? false
            case "trash-hours":
                camera.trashHours = reader.integer(value, key, in: 0...TakeTrash.hoursLimit) ?? camera.trashHours
            case "clean-up": camera.cleanUp = reader.bool(value, key) ?? false
            case "export-name":
                guard let template = reader.string(value, key) else { break }
                switch ExportName.parse(template) {
                case .success(let name): camera.exportName = name
                case .failure(let error): reader.error(value, "export-name '\(template)' \(error.reason)")
                }
            case "settings": camera.settings = parseSettings(value)
            case "proxy": camera.proxy = parseProxy(value)
            case "memory-limit":
                camera.memoryLimit = (reader.integer(value, key, in: 100...4096) ?? 150) * 1024 * 1024
            default: break
            }
        }
        return camera
    }

    /// `proxy`: `off`, a height (`540p`), or a mapping of `size`, `bit-rate`
    /// (bits a second: `2M`, `800k`) and `naming` (`resolve`, `premiere`).
    private mutating func parseProxy(_ node: YAMLNode) -> ProxySpec? {
        let heights = ProxySpec.heights.map { ("\($0)p", $0) }
        if case .scalar = node {
            let height = reader.choice(node, "proxy", [("off", 0)] + heights) ?? 0
            return height > 0 ? ProxySpec(height: height) : nil
        }
        guard let pairs = reader.mapping(node, "camera.proxy") else { return nil }
        reader.checkKeys(pairs, allowed: ["size", "bit-rate", "naming"], in: "camera.proxy")
        var proxy = ProxySpec()
        for (key, _, value) in pairs {
            switch key {
            case "size": proxy.height = reader.choice(value, "proxy size", heights) ?? proxy.height
            case "bit-rate":
                guard let text = reader.string(value, key) else { break }
                guard let bits = Self.bitRate(text), ProxySpec.bitRates.contains(bits) else {
                    reader.error(value, "bit-rate must be 200k to 50M bits a second (such as 2M or 800k), not '\(text)'")
                    break
                }
                proxy.bitRate = bits
            case "naming":
                proxy.naming = reader.choice(value, key, ProxyNaming.allCases.map { ($0.rawValue, $0) }) ?? proxy.naming
            default: break
            }
        }
        return proxy
    }

    /// Bits a second from `2M`, `800k` or `1500000`.
    static func bitRate(_ text: String) -> Int? {
        let (digits, scale): (Substring, Int) =
            switch text.last {
            case "M", "m": (text.dropLast(), 1_000_000)
            case "k", "K": (text.dropLast(), 1000)
            default: (Substring(text), 1)
            }
        guard !digits.isEmpty, digits.count <= 9, let value = Int(digits) else { return nil }
        return value * scale
    }

    /// `settings`: V4L2 control keys to a number, `true`/`false`, or a menu item's name.
    private mutating func parseSettings(_ node: YAMLNode) -> [CameraSetting] {
        var settings: [CameraSetting] = []
        for (name, keyNode, value) in reader.mapping(node, "camera.settings") ?? [] {
            let key = CameraControl.key(name)
            guard !key.isEmpty else {
                reader.error(keyNode, "'\(name)' is not a control's name")
                continue
            }
            if settings.contains(where: { $0.key == key }) {
                reader.error(keyNode, "\(key) is set twice")
                continue
            }
            guard case .scalar(let scalar) = value, !scalar.string.isEmpty else {
                reader.error(value, "\(key) takes a number, true or false, or a menu item's name")
                continue
            }
            let text = scalar.string
            if let number = Int64(text) {
                settings.append(CameraSetting(key: key, value: .number(number)))
            } else if text == "true" || text == "false" {
                settings.append(CameraSetting(key: key, value: .number(text == "true" ? 1 : 0)))
            } else {
                settings.append(CameraSetting(key: key, value: .item(text)))
            }
        }
        return settings
    }

    private mutating func parseSize(_ node: YAMLNode) -> (width: Int, height: Int)? {
        guard let text = reader.string(node, "max-size") else { return nil }
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (16...16384).contains(width), (16...16384).contains(height)
        else {
            reader.error(node, "max-size must be WIDTHxHEIGHT such as 1920x1080, not '\(text)'")
            return nil
        }
        return (width, height)
    }

    mutating func parseSounds(_ node: YAMLNode) -> SoundSpec {
        var sounds = SoundSpec()
        guard let pairs = reader.mapping(node, "sounds") else { return sounds }
        reader.checkKeys(pairs, allowed: ["device", "feedback", "files"], in: "sounds")
        for (key, _, value) in pairs {
            switch key {
            case "device": sounds.device = reader.string(value, key) ?? sounds.device
            case "feedback": sounds.feedback = reader.bool(value, key) ?? true
            case "files":
                for (name, keyNode, file) in reader.mapping(value, "sounds.files") ?? [] {
                    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                    else {
                        reader.error(keyNode, "sound name '\(name)' may hold only letters, digits, '-' and '_'")
                        continue
                    }
                    guard let path = reader.string(file, "the file of sound '\(name)'"), !path.isEmpty else { continue }
                    sounds.files[name] = path
                }
            default: break
            }
        }
        return sounds
    }
}
