/// A take's proxy (`camera.proxy`): a small H.264 copy of the take written
/// beside it from the same frames, with its timecode and sound, for editors
/// who cut on proxies and finish on the camera originals.
public struct ProxySpec: Hashable, Sendable {
    /// The proxy's height in lines; its width keeps the camera's shape.
    public var height: Int
    /// Bits a second; nil: `defaultBitRate`.
    public var bitRate: Int?
    /// Where proxies go and what they are called.
    public var naming: ProxyNaming

    /// The heights a profile may ask for.
    public static let heights = [360, 480, 540, 720]
    /// The bit rates a profile may ask for, bits a second.
    public static let bitRates = 200_000...50_000_000

    public init(height: Int = 540, bitRate: Int? = nil, naming: ProxyNaming = .resolve) {
        self.height = height
        self.bitRate = bitRate
        self.naming = naming
    }

    /// The proxy's size for a camera picture of `width`x`height`: `height`
    /// lines, the width in proportion, both even; nil when the picture is
    /// not larger than the proxy (a proxy would save nothing).
    public func size(forWidth width: Int, height sourceHeight: Int) -> (width: Int, height: Int)? {
        guard width > 0, sourceHeight > height else { return nil }
        let scaled = (width * height + sourceHeight / 2) / sourceHeight
        return (max(2, (scaled + 1) / 2 * 2), height)
    }

    /// The bit rate for a proxy of this size and rate: the profile's, or 0.13
    /// bits a pixel a frame (2 Mb/s at 960x540 and 30 fps), at least 200 kb/s.
    public func bitRate(width: Int, height: Int, fps: FrameRate) -> Int {
        if let bitRate { return bitRate }
        let bits = Double(width * height) * fps.value * 0.13
        return max(Self.bitRates.lowerBound, Int(bits / 1000) * 1000)
    }
}

/// How proxies are filed, as editors find them: DaVinci Resolve links a clip's
/// proxy from a `Proxy` folder beside it with the clip's name; Premiere Pro's
/// "next to original media" proxies are in a `Proxies` folder, named
/// `NAME_Proxy`. A proxy is an MP4, or a QuickTime file beside a QuickTime
/// take (passed-through MJPEG, whose sound is PCM, which MP4 does not hold).
public enum ProxyNaming: String, CaseIterable, Hashable, Sendable {
    case resolve
    case premiere

    /// The folder beside the takes that holds their proxies.
    public var folder: String {
        switch self {
        case .resolve: "Proxy"
        case .premiere: "Proxies"
        }
    }

    /// The proxy's file name for a take's (or an export's) file name: `.mov`
    /// for a `.mov`, else `.mp4`.
    public func fileName(for file: String) -> String {
        let dot = file.lastIndex(of: ".")
        let stem = dot.map { String(file[..<$0]) } ?? file
        let suffix = file.hasSuffix(".mov") ? ".mov" : ".mp4"
        switch self {
        case .resolve: return stem + suffix
        case .premiere: return stem + "_Proxy" + suffix
        }
    }

    /// Where the proxy of `file` is, relative to the folder holding `file`: `Proxy/NAME.mp4`.
    public func path(for file: String) -> String { folder + "/" + fileName(for: file) }

    /// The folder and name of a proxy path as `path(for:)` makes it; nil for
    /// any other path (a manifest names only these).
    public static func split(_ path: String) -> (folder: String, name: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, allCases.contains(where: { $0.folder == parts[0] }) else { return nil }
        let name = String(parts[1])
        guard TakeManifest.isPlainName(name), name.hasSuffix(".mp4") || name.hasSuffix(".mov") else { return nil }
        return (String(parts[0]), name)
    }
}
