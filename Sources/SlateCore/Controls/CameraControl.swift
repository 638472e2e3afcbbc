/// A camera control as the driver describes it (`VIDIOC_QUERY_EXT_CTRL`), with its current value.
public struct CameraControl: Hashable, Sendable {
    /// A V4L2 control id (`V4L2_CID_*`).
    public struct ID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public init(_ rawValue: UInt32) { self.rawValue = rawValue }

        public var description: String {
            let digits = String(rawValue, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        }

        // User class (V4L2_CID_BASE = 0x00980900).
        public static let brightness = ID(0x0098_0900)
        public static let contrast = ID(0x0098_0901)
        public static let saturation = ID(0x0098_0902)
        public static let hue = ID(0x0098_0903)
        /// V4L2_CID_EXPOSURE: the older user-class exposure.
        public static let exposure = ID(0x0098_0911)
        public static let hflip = ID(0x0098_0914)
        public static let vflip = ID(0x0098_0915)
        // Camera class (V4L2_CID_CAMERA_CLASS_BASE = 0x009a0900).
        /// V4L2_CID_EXPOSURE_AUTO, a menu: 0 auto, 1 manual, 2 shutter priority, 3 aperture priority.
        public static let exposureAuto = ID(0x009A_0901)
        /// V4L2_CID_EXPOSURE_ABSOLUTE, in 100 µs units.
        public static let exposureAbsolute = ID(0x009A_0902)
        public static let exposureAutoPriority = ID(0x009A_0903)
        public static let focusAbsolute = ID(0x009A_090A)
        public static let focusAuto = ID(0x009A_090C)
        public static let zoomAbsolute = ID(0x009A_090D)
        public static let zoomContinuous = ID(0x009A_090F)
        /// V4L2_CID_AUTO_EXPOSURE_BIAS, in 0.001 EV units.
        public static let autoExposureBias = ID(0x009A_0913)
        // Flash class (V4L2_CID_FLASH_CLASS_BASE = 0x009c0900).
        /// V4L2_CID_FLASH_LED_MODE, a menu: 0 none, 1 flash, 2 torch.
        public static let flashLEDMode = ID(0x009C_0901)
        public static let flashTorchIntensity = ID(0x009C_0908)
    }

    /// `enum v4l2_ctrl_type`.
    public enum Kind: Hashable, Sendable {
        case integer, boolean, menu, button, integer64, ctrlClass, string, bitmask, integerMenu
        /// A compound control (area, array, codec state): no single value.
        case compound(UInt32)

        public init(v4l2 type: UInt32) {
            switch type {
            case 1: self = .integer
            case 2: self = .boolean
            case 3: self = .menu
            case 4: self = .button
            case 5: self = .integer64
            case 6: self = .ctrlClass
            case 7: self = .string
            case 8: self = .bitmask
            case 9: self = .integerMenu
            default: self = .compound(type)
            }
        }

        public var name: String {
            switch self {
            case .integer: "int"
            case .boolean: "bool"
            case .menu: "menu"
            case .button: "button"
            case .integer64: "int64"
            case .ctrlClass: "class"
            case .string: "string"
            case .bitmask: "bitmask"
            case .integerMenu: "intmenu"
            case .compound(let type): "compound-\(type)"
            }
        }

        /// Kinds with one integer value to get and set.
        public var hasValue: Bool {
            switch self {
            case .integer, .boolean, .menu, .integer64, .bitmask, .integerMenu: true
            default: false
            }
        }
    }

    public var id: ID
    public var name: String
    public var kind: Kind
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    /// nil for controls without a single integer value, and for write-only or inactive ones that cannot be read.
    public var value: Int64?
    /// `V4L2_CTRL_FLAG_*`.
    public var flags: UInt32
    /// Menu entries: index and name (menus) or value (integer menus).
    public var menu: [(index: Int64, name: String)]

    public init(
        id: ID, name: String, kind: Kind, minimum: Int64, maximum: Int64, step: UInt64, defaultValue: Int64,
        value: Int64?, flags: UInt32 = 0, menu: [(index: Int64, name: String)] = []
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.flags = flags
        self.menu = menu
    }

    /// `V4L2_CTRL_FLAG_*`, as `flags` holds them.
    public enum Flag {
        public static let disabled: UInt32 = 0x0001
        public static let grabbed: UInt32 = 0x0002
        public static let readOnly: UInt32 = 0x0004
        /// Setting it changes other controls (auto exposure, auto gain, auto white balance).
        public static let update: UInt32 = 0x0008
        public static let inactive: UInt32 = 0x0010
        public static let writeOnly: UInt32 = 0x0040
        public static let volatile: UInt32 = 0x0080
    }

    public var isReadOnly: Bool { flags & Flag.readOnly != 0 }
    public var isInactive: Bool { flags & Flag.inactive != 0 }
    public var isGrabbed: Bool { flags & Flag.grabbed != 0 }
    public var updatesOthers: Bool { flags & Flag.update != 0 }

    /// The name profiles and commands use: the driver's name normalised as
    /// v4l2-ctl and cameractrls do (`White Balance Temperature` is
    /// `white_balance_temperature`, `Auto Exposure, Bias` is `auto_exposure_bias`).
    public var key: String { Self.key(name) }

    /// `name` in lower case, each run of other characters than letters and digits one `_`, none at the ends.
    public static func key(_ name: String) -> String {
        var key = ""
        var gap = false
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if gap && !key.isEmpty { key.append("_") }
                key.append(character)
                gap = false
            } else {
                gap = true
            }
        }
        return key
    }

    public static func == (a: CameraControl, b: CameraControl) -> Bool {
        a.id == b.id && a.name == b.name && a.kind == b.kind && a.minimum == b.minimum && a.maximum == b.maximum
            && a.step == b.step && a.defaultValue == b.defaultValue && a.value == b.value && a.flags == b.flags
            && a.menu.elementsEqual(b.menu) { $0.index == $1.index && $0.name == $1.name }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(value)
    }
}
