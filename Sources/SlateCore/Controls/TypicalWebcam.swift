extension ModelledCamera {
    /// The controls of a typical UVC webcam (as a Logitech C920 lists them),
    /// which `slate replay` models when it is given no camera's controls.
    public static let typicalWebcam: [CameraControl] = [
        integer(0x0098_0900, "Brightness", 0...255, default: 128),
        integer(0x0098_0901, "Contrast", 0...255, default: 128),
        integer(0x0098_0902, "Saturation", 0...255, default: 128),
        CameraControl(
            id: .init(0x0098_090C), name: "White Balance, Automatic", kind: .boolean, minimum: 0, maximum: 1, step: 1,
            defaultValue: 1, value: 1, flags: CameraControl.Flag.update),
        integer(0x0098_0913, "Gain", 0...255, default: 0),
        CameraControl(
            id: .init(0x0098_0918), name: "Power Line Frequency", kind: .menu, minimum: 0, maximum: 2, step: 1,
            defaultValue: 2, value: 2, menu: [(0, "Disabled"), (1, "50 Hz"), (2, "60 Hz")]),
        CameraControl(
            id: .init(0x0098_091A), name: "White Balance Temperature", kind: .integer, minimum: 2000, maximum: 6500,
            step: 1, defaultValue: 4000, value: 4000, flags: CameraControl.Flag.inactive),
        integer(0x0098_091B, "Sharpness", 0...255, default: 128),
        integer(0x0098_091C, "Backlight Compensation", 0...1, default: 0),
        CameraControl(
            id: .init(0x009A_0901), name: "Auto Exposure", kind: .menu, minimum: 0, maximum: 3, step: 1,
            defaultValue: 3, value: 3, flags: CameraControl.Flag.update,
            menu: [(1, "Manual Mode"), (3, "Aperture Priority Mode")]),
        CameraControl(
            id: .init(0x009A_0902), name: "Exposure Time, Absolute", kind: .integer, minimum: 3, maximum: 2047,
            step: 1, defaultValue: 250, value: 250, flags: CameraControl.Flag.inactive),
        integer(0x009A_090A, "Focus, Absolute", 0...250, default: 0, step: 5, flags: CameraControl.Flag.inactive),
        CameraControl(
            id: .init(0x009A_090C), name: "Focus, Automatic Continuous", kind: .boolean, minimum: 0, maximum: 1,
            step: 1, defaultValue: 1, value: 1, flags: CameraControl.Flag.update),
    ]

    private static func integer(
        _ id: UInt32, _ name: String, _ range: ClosedRange<Int64>, default value: Int64, step: UInt64 = 1,
        flags: UInt32 = 0
    ) -> CameraControl {
        CameraControl(
            id: .init(id), name: name, kind: .integer, minimum: range.lowerBound, maximum: range.upperBound, step: step,
            defaultValue: value, value: value, flags: flags)
    }
}
