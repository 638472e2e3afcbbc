import Testing

@testable import SlateCore

@Suite struct DeviceMatchingTests {
    @Test func aRigWithoutDevicesSaysWhatItWaitsFor() throws {
        let profile = try ProfileLoader.load(
            """
            inputs:
              pedals:
                match:
                  - {vendor: 0x3553, product: 0xb001}
                  - {name: "PCsensor*", bus: usb}
                bind: {KEY_B: primary}
              keys:
                match: {has: [KEY_VOLUMEDOWN, KEY_VOLUMEUP], udev: {ID_INPUT_KEY: "1"}}
                bind: {KEY_VOLUMEDOWN: primary}
            capture:
              primary: {click: take.toggle}
            """, file: "rig.yaml"
        ).get()
        #expect(
            profile.waitingMessage
                == "waiting for pedals (vendor 0x3553, product 0xb001; or name \"PCsensor*\", bus usb)"
                + " or keys (has KEY_VOLUMEDOWN KEY_VOLUMEUP, udev ID_INPUT_KEY=\"1\")")
        #expect(MatchRules().summary == "any device")
    }
}
