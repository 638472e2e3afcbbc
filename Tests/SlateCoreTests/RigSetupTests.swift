import SlateTestSupport
import Testing

@testable import SlateCore

/// What `slate setup` makes of a first rig's presses.
@Suite struct RigSetupTests {
    let left = EventCode(type: 1, code: UInt16(TestDevice.left))
    let middle = EventCode(type: 1, code: UInt16(TestDevice.middle))
    let right = EventCode(type: 1, code: UInt16(TestDevice.right))

    /// The footswitch as its recording describes it, and its pedals pressed left to right.
    func footswitch() throws -> (DeviceIdentity, [EventCode]) {
        let session = TestDevice.footswitch.session(
            [(TestDevice.left, 1, 1.1), (TestDevice.middle, 2, 2.1), (TestDevice.left, 3, 3.1), (TestDevice.right, 4, 4.1)],
            end: 5)
        let device = try #require(try InputRecording.parse(session, file: "pedals.evemu").devices.first)
        return (device.identity, RigSetup.pressed(device.events))
    }

    @Test func eachButtonOnceInTheOrderFirstPressed() throws {
        let (_, codes) = try footswitch()
        #expect(codes == [left, middle, right])
    }

    @Test func atMostMostButtonsAreTaken() {
        let presses = (0..<40).map {
            InputEvent(time: Instant(microseconds: Int64($0)), type: 1, code: UInt16(0x100 + $0), value: 1)
        }
        let codes = RigSetup.pressed(presses)
        #expect(codes.count == RigSetup.mostButtons && codes.first?.code == 0x100 && codes.last?.code == 0x11F)
    }

    @Test func oneTwoAndThreeButtonsGetTheirDefaults() {
        #expect(RigSetup.defaultJobs(count: 1) == [.record])
        #expect(RigSetup.defaultJobs(count: 2) == [.record, .deleteLast])
        #expect(RigSetup.defaultJobs(count: 3) == [.export, .record, .deleteLast])
        #expect(RigSetup.defaultJobs(count: 4) == [.export, .record, .deleteLast, .nothing])
    }

    @Test func aFootswitchsProfileChecksAndDoesWhatTheDemoDoes() throws {
        let (identity, codes) = try footswitch()
        let setup = RigSetup(
            device: identity, buttons: Array(zip(codes, RigSetup.defaultJobs(count: 3))).map { (code: $0.0, job: $0.1) },
            camera: "/dev/v4l/by-id/usb-cam-video-index0", sound: "hw:CARD=USB,DEV=0")
        let profile = try ProfileLoader.load(setup.profile, file: "rig.yaml").get()
        #expect(profile.inputs.count == 1)
        #expect(profile.inputIndex(matching: identity) == 0)
        #expect(profile.camera.candidates[.back] == ["/dev/v4l/by-id/usb-cam-video-index0"])
        #expect(setup.profile.contains("KEY_B: primary") && setup.profile.contains("KEY_A: secondary"))
        #expect(setup.profile.contains("KEY_C: take.delete-last") && setup.profile.contains("click: takes.export"))
        #expect(setup.profile.contains("device: \"hw:CARD=USB,DEV=0\""))
        #expect(
            setup.udevRule
                == #"ACTION!="remove", SUBSYSTEM=="input", KERNEL=="event*", DEVPATH!="/devices/virtual/input/*", ATTRS{id/vendor}=="3553", ATTRS{id/product}=="b001", TAG+="uaccess", ENV{SLATE_DEVICE}="1""#
        )
    }

    @Test func aDeviceWithoutIdsIsMatchedByItsNameAndNoCameraIsTheTestPattern() throws {
        let device = DeviceIdentity(name: "Headset \"X\" (AVRCP)", bus: 5)
        let setup = RigSetup(
            device: device, buttons: [(code: EventCode(type: 1, code: 200), job: .record)], camera: nil, sound: nil)
        let profile = try ProfileLoader.load(setup.profile, file: "rig.yaml").get()
        #expect(profile.inputIndex(matching: device) == 0)
        #expect(profile.camera.candidates[.back] == ["testpattern"] && profile.audio == nil)
        #expect(setup.udevRule == nil)
    }

    @Test func theServiceDropInOpensWhatTheProfileUses() throws {
        let inputs = TestDevice.footswitch.inputs(["KEY_B": "take.toggle"])
        let plain = try ProfileLoader.load(inputs + "camera: {back: [testpattern]}\n", file: "a.yaml").get()
        #expect(RigSetup.serviceDropIn(for: plain, home: "/home/ana") == nil)
        let networked = try ProfileLoader.load(
            inputs + "camera: {back: [testpattern], work: /media/rig/takes, output: ~/Videos/Slate}\nhttp: {listen: 8600}\n",
            file: "b.yaml"
        ).get()
        #expect(
            RigSetup.serviceDropIn(for: networked, home: "/home/ana")
                == """
                [Service]
                # The page, the broker or OBS: Internet sockets.
                RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6
                # The profile's work and output folders.
                ReadWritePaths=-/media/rig/takes

                """)
    }
}
