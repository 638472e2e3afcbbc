import SlateCore
import Testing

/// A proxy's size, bit rate and name, as `camera.proxy` makes them.
@Suite struct ProxySpecTests {
    @Test func theProxyKeepsTheCamerasShapeAtItsHeightAndIsEven() {
        let spec = ProxySpec(height: 540)
        #expect(spec.size(forWidth: 1920, height: 1080)! == (960, 540))
        #expect(spec.size(forWidth: 3840, height: 2160)! == (960, 540))
        #expect(spec.size(forWidth: 1440, height: 1080)! == (720, 540))
        // 2560x1080 (21:9) is 1280 wide at 540; 1366x768 is 960.47: the nearest even width.
        #expect(spec.size(forWidth: 2560, height: 1080)! == (1280, 540))
        #expect(spec.size(forWidth: 1366, height: 768)! == (960, 540))
        // No larger than the proxy: none.
        #expect(spec.size(forWidth: 960, height: 540) == nil)
        #expect(spec.size(forWidth: 640, height: 480) == nil)
        #expect(ProxySpec(height: 360).size(forWidth: 640, height: 480)! == (480, 360))
    }

    @Test func theBitRateIsTheProfilesOrFollowsThePixelsAndTheRate() {
        #expect(ProxySpec(height: 540).bitRate(width: 960, height: 540, fps: FrameRate(30)) == 2_021_000)
        #expect(ProxySpec(height: 540).bitRate(width: 960, height: 540, fps: FrameRate(60)) == 4_043_000)
        #expect(ProxySpec(height: 360).bitRate(width: 640, height: 360, fps: .ntsc(30)) == 897_000)
        #expect(ProxySpec(height: 360).bitRate(width: 2, height: 360, fps: FrameRate(24)) == 200_000)
        #expect(ProxySpec(height: 540, bitRate: 800_000).bitRate(width: 960, height: 540, fps: FrameRate(30)) == 800_000)
    }

    @Test func proxiesAreNamedAsResolveAndPremiereLookForThem() {
        let take = "take-20261128-101500-0007.mov"
        #expect(ProxyNaming.resolve.path(for: take) == "Proxy/take-20261128-101500-0007.mov")
        #expect(ProxyNaming.premiere.path(for: take) == "Proxies/take-20261128-101500-0007_Proxy.mov")
        #expect(ProxyNaming.premiere.path(for: "take-1.mp4") == "Proxies/take-1_Proxy.mp4")
        #expect(ProxyNaming.resolve.fileName(for: "slate-rig-2026-11-28.mp4") == "slate-rig-2026-11-28.mp4")
        #expect(ProxyNaming.split("Proxy/take-1.mp4")! == ("Proxy", "take-1.mp4"))
        #expect(ProxyNaming.split("Proxies/take-1_Proxy.mp4")! == ("Proxies", "take-1_Proxy.mp4"))
        for path in [
            "take-1.mp4", "Proxy/../takes.json", "Proxy/a/b.mp4", "Other/take-1.mp4", "Proxy/take-1.mkv", "/Proxy/x.mp4",
        ] {
            #expect(ProxyNaming.split(path) == nil, "\(path)")
        }
    }

    /// A manifest names a proxy only in a proxy folder of the work folder.
    @Test func aManifestRefusesAProxyOutsideItsProxyFolders() {
        let take = #"{"id":"0001","file":"take-1.mp4","thumbnail":null,"started":1,"duration":1,"frames":30,"dropped":0"#
        let good = TakeManifest.parse(#"{"takes":["# + take + #","proxy":"Proxy/take-1.mp4"}]}"#, file: "takes.json")
        #expect((try? good.get())?.takes.first?.proxy == "Proxy/take-1.mp4")
        let bad = TakeManifest.parse(#"{"takes":["# + take + #","proxy":"../../etc/x.mp4"}]}"#, file: "takes.json")
        guard case .failure(let error) = bad else {
            Issue.record("a proxy outside the work folder was read")
            return
        }
        #expect(error.description.contains("a take's proxy must be Proxy/NAME or Proxies/NAME (.mp4 or .mov)"), "\(error)")
    }
}
