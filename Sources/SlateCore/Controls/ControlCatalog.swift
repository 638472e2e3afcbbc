/// Every control of one camera, as `slate controls --json` writes it: enough to
/// model the camera without it.
///
/// `{"camera":"vivid","controls":[…],"path":"/dev/video0","type":"controls"}`,
/// each control a `ControlLine`.
public struct ControlCatalog: Hashable, Sendable {
    /// The camera's card name (`VIDIOC_QUERYCAP`), e.g. `HD Pro Webcam C920`.
    public var camera: String
    /// The device the controls were read from.
    public var path: String
    public var controls: [CameraControl]

    public init(camera: String, path: String, controls: [CameraControl]) {
        self.camera = camera
        self.path = path
        self.controls = controls
    }

    /// Each control with what it can back.
    public var lines: [ControlLine] { controls.map { ControlLine($0, among: controls) } }

    /// The catalog as one line of JSON.
    public var json: String { JSONLine.encode(self) }

    /// Reads a catalog; errors name the file and the entry (`controls[2].type`).
    public static func parse(_ text: String, file: String) -> Result<ControlCatalog, JSONFileError> {
        JSONFileError.decode(ControlCatalog.self, from: text, file: file)
    }
}

extension ControlCatalog: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, camera, path, controls
    }

    /// The line's `type`.
    static let type = "controls"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == Self.type else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "a control catalog's type is '\(Self.type)', not '\(type)'")
        }
        camera = try container.decode(String.self, forKey: .camera)
        path = try container.decode(String.self, forKey: .path)
        controls = try container.decode([ControlLine].self, forKey: .controls).map(\.control)
        if let twice = Self.repeatedID(in: controls) {
            throw DecodingError.dataCorruptedError(
                forKey: .controls, in: container, debugDescription: "control \(twice) appears twice")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.type, forKey: .type)
        try container.encode(camera, forKey: .camera)
        try container.encode(path, forKey: .path)
        try container.encode(lines, forKey: .controls)
    }

    private static func repeatedID(in controls: [CameraControl]) -> CameraControl.ID? {
        var seen: Set<CameraControl.ID> = []
        return controls.first { !seen.insert($0.id).inserted }?.id
    }
}
