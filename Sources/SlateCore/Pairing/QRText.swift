/// A QR code drawn on a terminal, two rows of modules to a line with half
/// blocks, inside the quiet zone of four light modules that readers need.
public enum QRText {
    /// The light modules around the code.
    public static let quietZone = 4

    /// The lines that draw a `width`×`width` code whose dark modules are
    /// `dark` (row by row). With `colored`, black and white are set with
    /// ANSI colours, which read on any terminal; without, light modules are
    /// drawn as blocks, for the usual light text on a dark background.
    public static func lines(width: Int, dark: [Bool], colored: Bool) -> [String] {
        let size = width + 2 * quietZone
        func isDark(_ row: Int, _ column: Int) -> Bool {
            let (y, x) = (row - quietZone, column - quietZone)
            guard y >= 0, y < width, x >= 0, x < width, y * width + x < dark.count else { return false }
            return dark[y * width + x]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: size, by: 2) {
            // An odd last row's lower half is light, as the quiet zone is.
            var line = ""
            var colors = ""
            for column in 0..<size {
                let top = isDark(row, column), bottom = isDark(row + 1, column)
                if colored {
                    // `▀` in the top module's colour over the bottom one's, set when it changes.
                    let cell = "\u{1B}[\(top ? 30 : 97);\(bottom ? 40 : 107)m"
                    if cell != colors { line += cell }
                    colors = cell
                    line += "▀"
                } else {
                    line += plainCell(topLight: !top, bottomLight: !bottom)
                }
            }
            lines.append(line + (colored ? "\u{1B}[0m" : ""))
        }
        return lines
    }

    /// Blocks where the modules are light.
    private static func plainCell(topLight: Bool, bottomLight: Bool) -> String {
        switch (topLight, bottomLight) {
        case (true, true): "█"
        case (true, false): "▀"
        case (false, true): "▄"
        case (false, false): " "
        }
    }
}
