import SystemPackage

/// A progress bar on standard error, drawn only when it is a terminal.
public struct ProgressBar {
    private let label: String
    private let visible = Terminal.isTerminal(.standardError)
    private var shown = -1

    public init(_ label: String) { self.label = label }

    /// Shows `fraction` (0...1) as a bar and a percentage.
    public mutating func update(_ fraction: Double) {
        guard visible else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard percent != shown else { return }
        shown = percent
        let filled = percent * 30 / 100
        OutputStream.writeRaw(
            "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
                + "] \(percent)%" + (percent == 100 ? "\n" : ""), fd: .standardError)
    }
}
