/// A V4L2 pixel format code: four ASCII characters packed little-endian, e.g. `MJPG`, `YUYV`, `H264`.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `"YUYV"`; nil unless exactly four ASCII characters.
    public init?(_ string: String) {
        let bytes = Array(string.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    /// The four characters (trailing spaces kept, as in `"Y16 "`); bytes outside ASCII as `?`.
    /// A big-endian variant (bit 31 set) ends in `-BE`.
    public var string: String {
        var text = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            var byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
            if shift == 24 { byte &= 0x7F }
            text.unicodeScalars.append(Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?")))
        }
        return rawValue & 0x8000_0000 != 0 ? text + "-BE" : text
    }

    public var description: String { string }

    public static let mjpeg = FourCC(rawValue: 0x4750_4A4D)  // MJPG
    public static let jpeg = FourCC(rawValue: 0x4745_504A)  // JPEG
    public static let h264 = FourCC(rawValue: 0x3436_3248)  // H264
    public static let hevc = FourCC(rawValue: 0x4356_4548)  // HEVC
    public static let yuyv = FourCC(rawValue: 0x5659_5559)  // YUYV
    public static let uyvy = FourCC(rawValue: 0x5956_5955)  // UYVY
    public static let yvyu = FourCC(rawValue: 0x5559_5659)  // YVYU
    public static let vyuy = FourCC(rawValue: 0x5955_5956)  // VYUY
    public static let nv12 = FourCC(rawValue: 0x3231_564E)  // NV12
    public static let nv21 = FourCC(rawValue: 0x3132_564E)  // NV21
    public static let nv16 = FourCC(rawValue: 0x3631_564E)  // NV16
    public static let nv61 = FourCC(rawValue: 0x3136_564E)  // NV61
    public static let yu12 = FourCC(rawValue: 0x3231_5559)  // YU12 (I420)
    public static let yv12 = FourCC(rawValue: 0x3231_5659)  // YV12
    public static let yuv422p = FourCC(rawValue: 0x5032_3234)  // 422P
    public static let rgb24 = FourCC(rawValue: 0x3342_4752)  // RGB3
    public static let bgr24 = FourCC(rawValue: 0x3352_4742)  // BGR3
    public static let grey = FourCC(rawValue: 0x5945_5247)  // GREY

    /// Compressed formats Slate can store as they come (pass-through), best first:
    /// H.264 and HEVC go into MP4/MKV by stream copy; MJPEG frames as they are.
    public static let passThrough: [FourCC] = [.h264, .hevc, .mjpeg, .jpeg]

    /// Raw formats Slate can encode from (libswscale converts them for the encoder), best first.
    /// NV16 and NV61 are not among them: libswscale does not read them.
    public static let encodable: [FourCC] = [
        .yuyv, .uyvy, .nv12, .yu12, .yv12, .nv21, .yvyu, .vyuy, .yuv422p, .rgb24, .bgr24, .grey,
    ]

    /// Compressed formats Slate can decode to encode again, when pass-through is off.
    public static let decodable: [FourCC] = [.mjpeg, .jpeg]

    public var isPassThrough: Bool { FourCC.passThrough.contains(self) }
    public var isEncodable: Bool { FourCC.encodable.contains(self) }
    /// Packed RGB, which V4L2 states as full range and libswscale converts with BT.601's matrix.
    public var isRGB: Bool { self == .rgb24 || self == .bgr24 }
}

/// A frame interval in seconds per frame, as V4L2 gives it (`struct v4l2_fract`): 1/30 is 30 fps.
public struct Fraction: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var numerator: Int64
    public var denominator: Int64

    /// Reduced; a zero denominator is kept as is (an invalid interval the driver may report).
    public init(_ numerator: Int64, _ denominator: Int64) {
        let divisor = Fraction.gcd(numerator, denominator)
        if divisor > 1 {
            self.numerator = numerator / divisor
            self.denominator = denominator / divisor
        } else {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    /// The interval of `fps` frames per second: 1/fps.
    public static func interval(fps: Int) -> Fraction { Fraction(1, Int64(fps)) }

    /// `"1/30"`, `"2/25"`.
    public var description: String { "\(numerator)/\(denominator)" }

    /// Frames per second for an interval, e.g. `"30"`, `"12.5"`, `"29.97"` (at most two decimals).
    public var fpsText: String {
        guard numerator > 0 else { return "inf" }
        let hundredths = (denominator * 100 + numerator / 2) / numerator
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Frames per second (`denominator / numerator`).
    public var fps: Double { numerator == 0 ? .infinity : Double(denominator) / Double(numerator) }

    /// Seconds (`numerator / denominator`).
    var seconds: Double { Double(numerator) / Double(denominator) }

    // Cross-multiplied in 128 bits: drivers' intervals (UVC counts 100 ns units) can overflow 64.
    public static func < (a: Fraction, b: Fraction) -> Bool {
        let left = a.numerator.multipliedFullWidth(by: b.denominator)
        let right = b.numerator.multipliedFullWidth(by: a.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }

    public static func == (a: Fraction, b: Fraction) -> Bool {
        let left = a.numerator.multipliedFullWidth(by: b.denominator)
        let right = b.numerator.multipliedFullWidth(by: a.denominator)
        return left.high == right.high && left.low == right.low
    }

    public func hash(into hasher: inout Hasher) {
        let reduced = Fraction(numerator, denominator)
        hasher.combine(reduced.numerator)
        hasher.combine(reduced.denominator)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int64(x)
    }
}

/// The frame intervals a pixel format and frame size allow (`VIDIOC_ENUM_FRAMEINTERVALS`).
public enum FrameIntervals: Hashable, Sendable, CustomStringConvertible {
    /// A list of intervals.
    case discrete([Fraction])
    /// Every interval `min + k * step` up to `max`; a continuous range has a step of zero.
    case stepwise(min: Fraction, max: Fraction, step: Fraction)

    /// The shortest interval: the highest frame rate.
    public var fastest: Fraction? {
        switch self {
        case .discrete(let list): list.filter { $0.numerator > 0 && $0.denominator > 0 }.min()
        case .stepwise(let min, _, _): min
        }
    }

    /// Whether some interval is at most `target`: the mode runs at `1 / target` or faster.
    public func allows(_ target: Fraction) -> Bool {
        guard let fastest else { return false }
        return fastest <= target
    }

    /// `target` when the intervals have it; else the longest interval shorter than
    /// `target` (the closest frame rate above the wanted one); nil when every interval is longer.
    public func closest(atMost target: Fraction) -> Fraction? {
        switch self {
        case .discrete(let list):
            return list.filter { $0.numerator > 0 && $0.denominator > 0 && $0 <= target }.max()
        case .stepwise(let min, let max, let step):
            guard min <= target else { return nil }
            let limit = Swift.min(target, max)
            guard step.numerator > 0, step.denominator > 0, min.denominator > 0 else { return limit }
            // k = floor((limit - min) / step), estimated in floating point and corrected exactly;
            // the interval is min + k * step.
            var k = Int64(((limit.seconds - min.seconds) / step.seconds).rounded(.down))
            k = Swift.max(0, k)
            func point(_ k: Int64) -> Fraction? {
                let (a, o1) = min.numerator.multipliedReportingOverflow(by: step.denominator)
                let (b, o2) = k.multipliedReportingOverflow(by: step.numerator)
                let (c, o3) = b.multipliedReportingOverflow(by: min.denominator)
                let (n, o4) = a.addingReportingOverflow(c)
                let (d, o5) = min.denominator.multipliedReportingOverflow(by: step.denominator)
                return o1 || o2 || o3 || o4 || o5 ? nil : Fraction(n, d)
            }
            while k > 0, let candidate = point(k), candidate > limit { k -= 1 }
            while let next = point(k + 1), next <= limit { k += 1 }
            return point(k) ?? min
        }
    }

    /// `["1/60", "1/30"]`, or `"1/60..1/5 step 1/1000"`.
    public var description: String {
        switch self {
        case .discrete(let list): list.map(\.description).joined(separator: " ")
        case .stepwise(let min, let max, let step):
            step.numerator == 0 ? "\(min)..\(max)" : "\(min)..\(max) step \(step)"
        }
    }
}

/// One way a camera can capture: pixel format, frame size and the frame intervals it allows.
public struct CameraMode: Hashable, Sendable, CustomStringConvertible {
    public var pixelFormat: FourCC
    /// The driver's name for the format, e.g. `"Motion-JPEG"`.
    public var formatName: String
    /// The driver flags the format compressed (`V4L2_FMT_FLAG_COMPRESSED`).
    public var isCompressed: Bool
    /// libv4l2 converts this format from another one (`V4L2_FMT_FLAG_EMULATED`): a conversion and a copy per frame.
    public var isEmulated: Bool
    public var width: Int
    public var height: Int
    public var intervals: FrameIntervals

    public init(
        pixelFormat: FourCC, formatName: String = "", isCompressed: Bool? = nil, isEmulated: Bool = false,
        width: Int, height: Int, intervals: FrameIntervals
    ) {
        self.pixelFormat = pixelFormat
        self.formatName = formatName
        self.isCompressed = isCompressed ?? pixelFormat.isPassThrough
        self.isEmulated = isEmulated
        self.width = width
        self.height = height
        self.intervals = intervals
    }

    public var area: Int { width * height }

    /// `"640x360"`.
    public var size: String { "\(width)x\(height)" }

    /// `"YUYV 640x360"`.
    public var description: String { "\(pixelFormat) \(size)" }
}

/// Counts frames a driver numbered but never delivered: gaps in V4L2's `sequence`
/// (a lower bound, as the anchors of V4L2 say). The counter may wrap; a jump
/// backwards (a restarted counter) or a repeated number is no drop.
public struct FrameSequence: Sendable {
    public private(set) var last: UInt32?
    public private(set) var dropped = 0

    public init() {}

    /// Records a delivered frame's number; returns how many were dropped just before it.
    @discardableResult
    public mutating func record(_ sequence: UInt32) -> Int {
        defer { last = sequence }
        guard let last else { return 0 }
        let gap = sequence &- last &- 1
        guard gap > 0, gap < 1 << 31 else { return 0 }
        dropped += Int(gap)
        return Int(gap)
    }
}
