import CQREncode
import SlateCore

/// A QR code made by libqrencode: its width in modules and which are dark.
public struct QRCode: Sendable {
    public let width: Int
    /// Row by row, `width` × `width`.
    public let dark: [Bool]

    /// `text` encoded at error-correction level M; nil when libqrencode cannot (too long).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.width = width
        dark = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// The lines that draw it on a terminal (`QRText`).
    public func lines(colored: Bool) -> [String] { QRText.lines(width: width, dark: dark, colored: colored) }
}
