/// How a video's numbers are colours, as its stream states it (the MP4 `colr` box and the codec's
/// own header): primaries, transfer, matrix and range, by libav's names (`bt709`, `iec61966-2-1`,
/// `smpte170m`; nil when unknown) so that ffprobe and editors read them back as written.
public struct ColorTags: Hashable, Sendable {
    public var primaries: String?
    public var transfer: String?
    public var matrix: String?
    /// Full range (0 to 255, as JPEG has it) or limited (16 to 235, as video has it).
    public var fullRange: Bool

    public init(primaries: String?, transfer: String?, matrix: String?, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// HD video's: what a source that states nothing is taken to be.
    public static let bt709 = ColorTags(primaries: "bt709", transfer: "bt709", matrix: "bt709", fullRange: false)
    /// SD video's: the test pattern's bars are BT.601's numbers.
    public static let bt601 = ColorTags(primaries: "smpte170m", transfer: "smpte170m", matrix: "smpte170m", fullRange: false)

    /// libav's name of the range: `tv` (limited) or `pc` (full).
    public var range: String { fullRange ? "pc" : "tv" }

    /// What a V4L2 format states (`colorspace`, `ycbcr_enc`, `quantization`, `xfer_func`), each default
    /// filled in as V4L2 maps it from the colorspace; a driver that states no colorspace is taken as BT.709.
    public init(v4l2Colorspace stated: UInt32, encoding: UInt32, quantization: UInt32, transfer: UInt32, isRGB: Bool) {
        let colorspace = stated == 0 ? 3 : stated
        let primaries: [UInt32: String] = [
            1: "smpte170m", 2: "smpte240m", 3: "bt709", 4: "smpte170m", 5: "bt470m", 6: "bt470bg", 7: "bt709",
            8: "bt709", 10: "bt2020", 12: "smpte431",
        ]
        // V4L2_MAP_XFER_FUNC_DEFAULT, then the functions libav names.
        let impliedTransfer: UInt32 =
            switch colorspace {
            case 9: 3
            case 2: 4
            case 12: 6
            case 11: 5
            case 7, 8: 2
            default: 1
            }
        let transfers: [UInt32: String] = [
            1: "bt709", 2: "iec61966-2-1", 3: "gamma22", 4: "smpte240m", 5: "linear", 7: "smpte2084",
        ]
        // V4L2_MAP_YCBCR_ENC_DEFAULT, then the matrices libav names.
        let impliedEncoding: UInt32 =
            switch colorspace {
            case 3, 12: 2
            case 10: 6
            case 2: 8
            default: 1
            }
        let matrices: [UInt32: String] = [
            1: "smpte170m", 2: "bt709", 3: "smpte170m", 4: "bt709", 5: "smpte170m", 6: "bt2020nc", 7: "bt2020c",
            8: "smpte240m",
        ]
        self.primaries = primaries[colorspace]
        self.transfer = transfers[transfer == 0 ? impliedTransfer : transfer]
        self.matrix = matrices[encoding == 0 ? impliedEncoding : encoding]
        // V4L2_MAP_QUANTIZATION_DEFAULT: full for RGB and JPEG, else limited.
        fullRange = quantization == 0 ? isRGB || colorspace == 7 : quantization == 1
    }

    /// A camera's JPEG frames: JFIF is full-range BT.601 whatever the driver says of its YUV, in
    /// the primaries and transfer it states.
    public var jpeg: ColorTags { ColorTags(primaries: primaries, transfer: transfer, matrix: "smpte170m", fullRange: true) }

    /// The same colours once libswscale has made limited-range YUV of them: RGB gets BT.601's
    /// matrix (libswscale's), JPEG's full range becomes limited.
    public func convertedToLimitedYUV(fromRGB: Bool) -> ColorTags {
        ColorTags(primaries: primaries, transfer: transfer, matrix: fromRGB ? "smpte170m" : matrix, fullRange: false)
    }
}
