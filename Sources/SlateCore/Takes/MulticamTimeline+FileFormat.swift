extension MulticamTimeline {
    /// The files `slate takes timeline` writes: OpenTimelineIO, FCPXML, or an
    /// MLT project (Kdenlive's, Shotcut's and melt's).
    public enum FileFormat: String, CaseIterable, Sendable {
        case otio, fcpxml, kdenlive

        /// The format a file's extension names: `.otio`, `.fcpxml`, `.kdenlive`
        /// or `.mlt` (in any case); OpenTimelineIO for any other.
        public init(fileName: String) {
            let name = fileName.split(separator: "/").last ?? ""
            switch name.split(separator: ".").dropFirst().last?.lowercased() {
            case "fcpxml": self = .fcpxml
            case "kdenlive", "mlt": self = .kdenlive
            default: self = .otio
            }
        }
    }

    /// The timeline as a file of `format`; a name an XML file cannot hold is refused.
    public func file(_ format: FileFormat) throws(XMLTextError) -> String {
        switch format {
        case .otio: JSONLine.encode(otio()) + "\n"
        case .fcpxml: try fcpxml().document(doctype: "fcpxml")
        case .kdenlive: try mlt().document()
        }
    }
}
