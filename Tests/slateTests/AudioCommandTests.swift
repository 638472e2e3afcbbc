import Foundation
import Testing

/// `slate audio` on ALSA's `null` device (silence, no sound card needed) and on devices that do not exist.
@Suite struct AudioCommandTests {
    @Test func metersSilenceAsJSONForTheSecondsAsked() throws {
        let result = try CLI.run(["audio", "--meter", "null", "--channels", "1", "--seconds", "0.3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 4)
        let levels = result.lines.dropLast().map {
            $0.replacingOccurrences(of: #""time_us":[0-9]+"#, with: "T", options: .regularExpression)
        }
        #expect(
            levels
                == ["0.1", "0.2", "0.3"].map {
                    #"{"channels":[{"clipped":0,"peak_db":"-inf","rms_db":"-inf"}],"clipped":0,"device":"null","overruns":0,"t":\#($0),T,"type":"level"}"#
                })
        #expect(
            result.lines.last
                == #"{"channels":[{"clipped":0,"peak_db":"-inf","rms_db":"-inf"}],"clipped":0,"device":"null","filled":0,"frames":14400,"overruns":0,"rate":48000,"seconds":0.3,"type":"summary"}"#
        )
    }

    @Test func theTestToneIsMeteredAsTakesRecordIt() throws {
        let result = try CLI.run(["audio", "--meter", "testtone", "--seconds", "0.2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines.map(CLI.json)
        #expect(lines.map { $0["type"] as? String } == ["level", "level", "summary"])
        #expect(lines.allSatisfy { $0["device"] as? String == "testtone" && $0["overruns"] as? Int == 0 })
        #expect(lines.last?["frames"] as? Int == 9600)
        // The tone is at -24 dBFS, its beeps at -6.
        let peaks = (lines.first?["channels"] as? [[String: Any]] ?? []).compactMap { $0["peak_db"] as? Double }
        #expect(peaks.count == 2 && peaks.allSatisfy { (-24.1)...(-5.9) ~= $0 }, "\(result.stdout)")
    }

    @Test func plainLinesWhenNotATerminal() throws {
        let result = try CLI.run(["audio", "--meter", "null", "--seconds", "0.2", "--rate", "44100"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "null: 44100 Hz stereo, periods of 441 frames, a buffer of 4410; for 0.200 s",
                "0.1 s  L -inf dB peak -inf dB rms  R -inf dB peak -inf dB rms  0 clipped, 0 overruns",
                "0.2 s  L -inf dB peak -inf dB rms  R -inf dB peak -inf dB rms  0 clipped, 0 overruns",
                "null: 0.200 s, peak L -inf dB R -inf dB, 0 clipped, 0 overruns",
            ])
    }

    @Test func blocksFollowOnWithTheirClock() throws {
        let result = try CLI.run(["audio", "--meter", "null", "--channels", "2", "--seconds", "0.05", "--blocks"])
        #expect(result.status == 0, "\(result.stderr)")
        let blocks = try result.lines.dropLast().map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(blocks.count == 5)
        #expect(blocks.map { $0["position"] as? Int } == [0, 480, 960, 1440, 1920])
        #expect(
            blocks.allSatisfy { $0["type"] as? String == "block" && $0["frames"] as? Int == 480 && $0["filled"] as? Int == 0 })
        #expect(blocks.allSatisfy { ($0["read_us"] as? Int ?? 0) >= ($0["time_us"] as? Int ?? .max) })
        #expect(result.lines.last?.contains(#""type":"summary""#) == true)
    }

    @Test func aMissingDeviceIsAnErrorListingThosePresent() throws {
        let result = try CLI.run(["audio", "--meter", "hw:CARD=NoSuchCard,DEV=0"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "slate audio: no capture device 'hw:CARD=NoSuchCard,DEV=0' (cannot open the device for capture: "))
        #expect(result.stderr.contains("capture devices present: ") || result.stderr.contains("no capture devices are present"))
        #expect(result.stdout == "")
    }

    @Test func listsEveryDeviceAsAJSONLine() throws {
        let result = try CLI.run(["audio", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        for line in result.lines {
            let device = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((device["device"] as? String)?.hasPrefix("hw:CARD=") == true)
        }
    }

    @Test func meterOptionsNeedTheMeter() throws {
        let rate = try CLI.run(["audio", "--rate", "44100"])
        #expect(rate.status == 64)
        #expect(rate.stderr.contains("--rate goes with --meter DEVICE"))
        let channels = try CLI.run(["audio", "--meter", "null", "--channels", "0"])
        #expect(channels.status == 64)
        #expect(channels.stderr.contains("--channels must be 1 to 64, not 0"))
        let seconds = try CLI.run(["audio", "--meter", "null", "--seconds", "-1"])
        #expect(seconds.status == 64)
    }
}
