import Testing

@testable import SlateCore

/// What pairing keeps and shows: codes, paired browsers' names and ids, a QR code's lines.
@Suite struct PairingTests {
    @Test func aCodeIsSixDigitsFromAnyNumberAndReadsBackFromItsLine() {
        let code = PairingCode(random: 42, now: 1000)
        #expect(code.code == "000042" && code.expires == 1000 + PairingCode.lifetime)
        #expect(PairingCode(random: UInt64.max, now: 0).code == "551615")
        #expect(PairingCode.parse(code.line + "\n") == code)
        for bad in ["", "12345 10", "1234567 10", "12345a 10", "123456", "123456 soon", "123456 10 11"] {
            #expect(PairingCode.parse(bad) == nil, "\(bad)")
        }
        #expect(code.minutesLeft(now: 1000) == 5 && code.minutesLeft(now: 1241) == 1 && code.minutesLeft(now: 1400) == 0)
    }

    static func browser(_ id: String) -> PairedBrowser {
        PairedBrowser(id: id, name: "b", paired: 0, address: "192.0.2.1", digest: "d")
    }

    @Test func atMost32BrowsersWithIdsOfTheirOwn() {
        var browsers = PairedBrowsers()
        for index in 0..<PairedBrowsers.limit { #expect(browsers.add(Self.browser("id\(index)")) == nil) }
        #expect(browsers.add(Self.browser("more"))?.contains("32 browsers are paired already") == true)
        #expect(browsers.revoke("id7")?.id == "id7")
        #expect(browsers.add(Self.browser("id8"))?.contains("taken") == true)
        #expect(browsers.add(Self.browser("new")) == nil)
    }

    @Test func aBrowserIsRevokedByItsIdOrTheStartOfOnlyOne() {
        var browsers = PairedBrowsers([Self.browser("ab12cd34"), Self.browser("ab99ff00"), Self.browser("ab")])
        #expect(browsers.revoke("ab")?.id == "ab")
        #expect(browsers.revoke("ab") == nil)
        #expect(browsers.revoke("") == nil)
        #expect(browsers.revoke("ab9")?.id == "ab99ff00")
        #expect(browsers.revoke("zz") == nil)
        #expect(browsers.browsers.map(\.id) == ["ab12cd34"])
    }

    @Test func namesAreOneShortPrintableLine() {
        #expect(PairedBrowsers.name("  Stage\u{7} left\n ") == "Stage left")
        #expect(PairedBrowsers.name(" \u{1B} ") == nil)
        let long = PairedBrowsers.name(String(repeating: "é", count: 100))
        #expect(long?.count == PairedBrowsers.nameLimit && long?.hasSuffix("…") == true)
        let agents = [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1":
                "iPhone Safari",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36": "Android Chrome",
            "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0": "Linux Firefox",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/131.0 Safari/537.36": "Linux Headless Chrome",
            "curl/8.5.0": "curl", "": "a browser",
        ]
        for (agent, name) in agents { #expect(PairedBrowsers.name(userAgent: agent) == name, "\(agent)") }
    }

    @Test func aQRCodeIsDrawnTwoRowsALineInsideItsQuietZone() {
        // A 3×3 code: dark corners and centre.
        let dark = [true, false, true, false, true, false, true, false, true]
        let plain = QRText.lines(width: 3, dark: dark, colored: false)
        #expect(plain.count == 6 && plain.allSatisfy { $0.count == 11 })
        #expect(plain[0] == String(repeating: "█", count: 11))
        // Light modules are blocks: rows 4 and 5, then row 6 over the quiet zone.
        #expect(plain[2] == "████▄▀▄████" && plain[3] == "████▄█▄████")
        #expect(plain[4] == plain[0] && plain[5] == plain[0])
        let colored = QRText.lines(width: 3, dark: dark, colored: true)
        #expect(colored.count == 6 && colored.allSatisfy { $0.hasSuffix("\u{1B}[0m") })
        #expect(colored[2].contains("\u{1B}[30;107m▀"))
    }
}
