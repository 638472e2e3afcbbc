import Foundation
import SlateCore
import SlateTestSupport
import Testing

@testable import SlateDaemon

@Suite struct PresetStoreTests {
    @Test func aSlotIsSavedBesideTheOthersAndLoadsBackFromAPrivateFile() throws {
        let folder = try MediaFiles.folder("presets")
        defer { MediaFiles.remove(folder) }
        let store = PresetStore(folder: folder + "/state/presets", camera: "usb-046d_HD_Pro_Webcam_C920-video-index0")
        #expect(try store.load(1) == nil)
        let one = [PresetValue(key: "brightness", value: 140), PresetValue(key: "power_line_frequency", value: 1)]
        let two = [PresetValue(key: "brightness", value: 90)]
        try store.save(one, in: 1)
        try store.save(two, in: 2)
        #expect(try store.load(1) == one)
        #expect(try store.load(2) == two)
        #expect(try store.load(3) == nil)
        let file = try FileManager.default.attributesOfItem(atPath: store.path)
        let presets = try FileManager.default.attributesOfItem(atPath: folder + "/state/presets")
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((presets[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aDamagedFileIsNamedWithItsLine() throws {
        let folder = try MediaFiles.folder("presets-bad")
        defer { MediaFiles.remove(folder) }
        let store = PresetStore(folder: folder, camera: "vivid")
        try "1:\n  brightness: bright\n".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(throws: PresetStore.Failure.self) { try store.load(1) }
        do {
            _ = try store.load(1)
        } catch {
            #expect(error.description == "\(store.path):2: expected a control's name and a whole number")
        }
    }
}
