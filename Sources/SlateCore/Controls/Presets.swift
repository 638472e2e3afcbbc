import SlateYAML

/// What is asked of a camera's presets: save the camera's controls' values
/// in a slot (as the camera has them then), or load a slot's values back onto it.
public enum PresetCommand: Hashable, Sendable {
    case save(slot: Int)
    case load(slot: Int)
}

/// One control's value in a preset, by the control's key.
public struct PresetValue: Hashable, Sendable {
    public var key: String
    public var value: Int64

    public init(key: String, value: Int64) {
        self.key = key
        self.value = value
    }

    /// The values a preset keeps of `controls`: every control that can be set
    /// and holds a value of its own (not read-only, inactive, volatile or a button).
    public static func of(_ controls: [CameraControl]) -> [PresetValue] {
        controls.compactMap { control in
            guard control.kind.hasValue, let value = control.value, !control.isReadOnly, !control.isInactive,
                control.flags & (CameraControl.Flag.volatile | CameraControl.Flag.writeOnly) == 0
            else { return nil }
            return PresetValue(key: control.key, value: value)
        }
    }
}

/// A camera's presets file (`presets/<camera>.yaml` in Slate's state
/// folder): slots, each a mapping of control keys to values.
public enum PresetFile {
    /// The slots a preset key may use.
    public static let slots = 1...99

    /// The file's slots; an error names the file and line.
    public static func parse(_ text: String, file: String) throws(PresetFileError) -> [Int: [PresetValue]] {
        let node: YAMLNode?
        do {
            node = try YAMLComposer.compose(text)
        } catch {
            throw PresetFileError(description: "\(file): not YAML: \(error)")
        }
        guard let node else { return [:] }
        guard case .mapping(let top) = node else {
            throw PresetFileError(
                description: "\(file):\(node.mark?.line ?? 1): expected slots, each a mapping of controls to values")
        }
        var slots: [Int: [PresetValue]] = [:]
        for (keyNode, valueNode) in top {
            guard let slot = keyNode.string.flatMap(Int.init), Self.slots.contains(slot), case .mapping(let pairs) = valueNode
            else {
                throw PresetFileError(
                    description:
                        "\(file):\(keyNode.mark?.line ?? 1): expected a slot from 1 to 99 with a mapping of controls to values")
            }
            slots[slot] = try pairs.map { (key, value) throws(PresetFileError) in
                guard let name = key.string, let number = value.string.flatMap({ Int64($0) }) else {
                    throw PresetFileError(
                        description: "\(file):\(key.mark?.line ?? 1): expected a control's name and a whole number")
                }
                return PresetValue(key: name, value: number)
            }
        }
        return slots
    }

    /// `slots` as the file holds them, slot by slot.
    public static func render(_ slots: [Int: [PresetValue]], camera: String) -> String {
        var lines = ["# Slate's presets for the camera \(camera): slot, then each control's value."]
        for slot in slots.keys.sorted() {
            lines.append("\(slot):")
            for value in slots[slot] ?? [] { lines.append("  \(value.key): \(value.value)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A presets file that cannot be read, with the file and line.
public struct PresetFileError: Error, CustomStringConvertible {
    public var description: String
}
