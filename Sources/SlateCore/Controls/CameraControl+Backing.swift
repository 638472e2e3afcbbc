extension CameraControl {
    /// What a camera control can drive in Slate's control model.
    public enum Backing: String, Codable, CaseIterable, Hashable, Sendable {
        /// An integer with a range: a continuous or stepped slider.
        case slider
        /// A menu, an integer menu or a boolean: a picker of its items.
        case picker
        /// `zoom_absolute`: the system zoom slider.
        case zoom
        /// `auto_exposure_bias`, or `exposure_time_absolute` when exposure can
        /// be manual: the system exposure-bias slider.
        case exposureBias = "exposure-bias"

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            guard let backing = Backing(rawValue: name) else {
                let known = Backing.allCases.map(\.rawValue).joined(separator: ", ")
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(name)' is nothing a control backs; one of \(known)")
            }
            self = backing
        }
    }

    /// What this control can back among `controls`, the camera's controls
    /// (exposure time backs exposure bias only when the camera has no
    /// `auto_exposure`, or one with a manual mode). A read-only control backs
    /// nothing; an inactive one backs what it would when active (Slate shows it
    /// disabled, not omitted).
    public func backings(among controls: [CameraControl]) -> [Backing] {
        guard !isReadOnly else { return [] }
        var backings: [Backing] = []
        switch kind {
        case .integer, .integer64: if maximum > minimum { backings.append(.slider) }
        case .boolean: backings.append(.picker)
        case .menu, .integerMenu: if menu.count >= 2 { backings.append(.picker) }
        default: break
        }
        guard !backings.isEmpty else { return [] }
        switch id {
        case .zoomAbsolute where backings == [.slider]: backings.append(.zoom)
        case .autoExposureBias: backings.append(.exposureBias)
        case .exposureAbsolute where backings == [.slider]:
            let auto = controls.first { $0.id == .exposureAuto }
            // V4L2_EXPOSURE_MANUAL is item 1 of auto_exposure.
            if auto.map({ $0.menu.contains { $0.index == 1 } }) ?? true { backings.append(.exposureBias) }
        default: break
        }
        return backings
    }
}
