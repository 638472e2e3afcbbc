import SlateCore
import Testing

@Suite struct CameraControlKeyTests {
    @Test(arguments: [
        ("White Balance Temperature", "white_balance_temperature"),
        ("Auto Exposure, Bias", "auto_exposure_bias"),
        ("Exposure Time, Absolute", "exposure_time_absolute"),
        ("Power Line Frequency", "power_line_frequency"),
        ("Gain, Automatic", "gain_automatic"),
        ("  Integer 64 Bits  ", "integer_64_bits"),
        ("Zoom, Absolute", "zoom_absolute"),
    ])
    func theDriversNameIsNormalisedAsV4l2CtlDoes(name: String, key: String) {
        #expect(CameraControl.key(name) == key)
    }
}
