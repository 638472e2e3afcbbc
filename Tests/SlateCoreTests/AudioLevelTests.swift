import Foundation
import Testing

@testable import SlateCore

private let stereo48k = AudioFormat(rate: 48000, channels: 2)

/// `frames` frames of a sine of `frequency` Hz at `amplitude`, the same on every channel.
private func sine(_ frequency: Double, amplitude: Double, frames: Int, format: AudioFormat) -> [Int16] {
    (0..<frames).flatMap { frame in
        let value = Int16((amplitude * sin(2 * .pi * frequency * Double(frame) / Double(format.rate))).rounded())
        return Array(repeating: value, count: format.channels)
    }
}

private func block(_ samples: [Int16], at microseconds: Int64 = 0, format: AudioFormat = stereo48k) -> AudioBlock {
    AudioBlock(format: format, time: Instant(microseconds: microseconds), position: 0, samples: samples)
}

// MARK: Levels

@Test func halfScaleSineIsSixDecibelsDownPeakAndNineRMS() {
    // 1 kHz at 48 kHz: 4800 frames are 100 whole cycles.
    let level = AudioLevel(samples: sine(1000, amplitude: 16384, frames: 4800, format: stereo48k), channels: 2)
    #expect(level.channels.count == 2)
    for channel in level.channels {
        #expect(abs(channel.peakDB - -6.02) < 0.01)
        // 20·log10(0.5/√2) = -9.03 dB
        #expect(abs(channel.rmsDB - -9.03) < 0.1)
        #expect(channel.clipped == 0)
    }
}

@Test func quietSineRMSWithinATenthOfADecibel() {
    let amplitude = 32768 * pow(10, -40.0 / 20)  // -40 dB peak
    let level = AudioLevel(samples: sine(997, amplitude: amplitude, frames: 48000, format: stereo48k), channels: 2)
    #expect(abs(level.channels[0].rmsDB - (-40 - 3.0103)) < 0.1)
    #expect(abs(level.channels[1].peakDB - -40) < 0.1)
}

@Test func fullScaleSquareIsZeroDecibelsAndEverySampleClips() {
    let square = (0..<960).flatMap { frame -> [Int16] in
        let value: Int16 = (frame / 24) % 2 == 0 ? .max : .min
        return [value, value]
    }
    let level = AudioLevel(samples: square, channels: 2)
    for channel in level.channels {
        #expect(abs(channel.peakDB) < 0.001)
        #expect(abs(channel.rmsDB) < 0.001)
        #expect(channel.clipped == 960)
    }
    #expect(level.clipped == 1920)
}

@Test func silenceIsMinusInfinityAndTheBarsFloor() {
    let level = AudioLevel(samples: Array(repeating: 0, count: 960), channels: 2)
    #expect(level.channels[0].peakDB == -.infinity)
    #expect(level.channels[0].rmsDB == -.infinity)
    #expect(AudioLevel.text(decibels: level.channels[0].peakDB) == "-inf")
    #expect(AudioLevel.bar(label: "L", level: level.channels[0], width: 10) == "L ░░░░░░░░░░   -inf dB peak   -inf dB rms")
}

@Test func aPartFrameAndNoChannelsAreLeftOut() {
    let level = AudioLevel(samples: [100, 200, 300], channels: 2)
    #expect(level.channels[0].samples == 1 && level.channels[1].samples == 1)
    #expect(level.channels[1].peak == 200)
    #expect(AudioLevel(samples: [1, 2], channels: 0).channels.isEmpty)
}

@Test func minusFullScaleIsAPeakOf32768() {
    var channel = ChannelLevel()
    channel.add(Int16.min)
    #expect(channel.peak == 32768)
    #expect(channel.clipped == 1)
}

// MARK: Text

@Test func decibelTextToATenth() {
    #expect(AudioLevel.text(decibels: -12.34) == "-12.3")
    #expect(AudioLevel.text(decibels: -0.04) == "0.0")
    #expect(AudioLevel.text(decibels: -0.05) == "-0.1")
    #expect(AudioLevel.text(decibels: 0) == "0.0")
    #expect(AudioLevel.text(decibels: -90.26) == "-90.3")
}

@Test func channelLabels() {
    #expect(AudioLevel.label(channel: 0, of: 1) == "M")
    #expect(AudioLevel.label(channel: 1, of: 2) == "R")
    #expect(AudioLevel.label(channel: 3, of: 4) == "4")
}

@Test func barFillsToTheRMSThenShadesToThePeak() {
    var level = ChannelLevel()
    level.peak = Int((32768 * pow(10, -12.0 / 20)).rounded())  // -12 dB
    level.sumOfSquares = pow(32768 * pow(10, -30.0 / 20), 2) * 100  // -30 dB RMS
    level.samples = 100
    // 60 dB over 20 cells: 3 dB a cell. RMS -30 dB: 10 cells; peak -12 dB: 16 cells.
    let bar = AudioLevel.bar(label: "L", level: level, width: 20, floor: -60)
    #expect(bar == "L ██████████▒▒▒▒▒▒░░░░  -12.0 dB peak  -30.0 dB rms")
    level.clipped = 3
    #expect(AudioLevel.bar(label: "R", level: level, width: 4, floor: -60).hasSuffix("dB rms  3 clipped"))
}

@Test func barsAreTheirWidthAtFullScaleAndBelowTheFloor() {
    var loud = ChannelLevel()
    loud.add(.max)
    #expect(AudioLevel.bar(label: "M", level: loud, width: 8).hasPrefix("M ████████  "))
    var faint = ChannelLevel()
    faint.add(1)  // -90.3 dB, under the -90 dB floor
    #expect(AudioLevel.bar(label: "M", level: faint, width: 8).hasPrefix("M ░░░░░░░░  -90.3 dB peak"))
    #expect(AudioLevel.bar(label: "M", level: faint, width: -3) == "M   -90.3 dB peak  -90.3 dB rms")
}

// MARK: The meter

@Test func meterKeepsTheTakesPeakAndClipsAndTheLastWindow() {
    let format = AudioFormat(rate: 48000, channels: 1)
    var meter = LevelMeter(format: format, window: .milliseconds(100))
    let loud = sine(1000, amplitude: 32767, frames: 480, format: format)  // 10 ms, clips at its crests
    let quiet = sine(1000, amplitude: 328, frames: 480, format: format)  // -40 dB
    meter.add(block(loud, format: format))
    for index in 1...20 { meter.add(block(quiet, at: Int64(index) * 10_000, format: format)) }
    #expect(meter.frames == 21 * 480)
    #expect(abs(meter.total.channels[0].peakDB) < 0.01)
    #expect(meter.total.clipped == meter.total.channels[0].clipped && meter.total.clipped > 0)
    // The last 100 ms are ten quiet blocks: the loud one has left the window.
    let recent = meter.recent.channels[0]
    #expect(recent.samples == 4800)
    #expect(abs(recent.peakDB - -40) < 0.1)
    #expect(recent.clipped == 0)
}

@Test func meterCountsFilledSilence() {
    var meter = LevelMeter(format: stereo48k)
    var gap = block(Array(repeating: 0, count: 2 * 960))
    gap.filled = 480
    meter.add(gap)
    #expect(meter.filled == 480)
    #expect(meter.frames == 960)
}

@Test func levelLineWritesSilenceAsMinusInf() {
    let silent = AudioLevel(channels: 1)
    let line = AudioLevelLine(
        device: "hw:0,1,0", seconds: 0.25, end: Instant(microseconds: 1_250_400),
        recent: silent, clipped: 0, overruns: 2)
    #expect(
        JSONLine.encode(line)
            == #"{"channels":[{"clipped":0,"peak_db":"-inf","rms_db":"-inf"}],"clipped":0,"device":"hw:0,1,0","overruns":2,"t":0.25,"time_us":1250400,"type":"level"}"#
    )
}

// MARK: Formats and the capture's clock

@Test func formatDurationsAndFrames() {
    let format = AudioFormat(rate: 44100, channels: 2)
    #expect(format.duration(ofFrames: 441) == .milliseconds(10))
    #expect(format.duration(ofFrames: 1) == .microseconds(22))
    #expect(format.frames(in: .milliseconds(10)) == 441)
    #expect(format.frames(in: .microseconds(11)) == 0)
    #expect(format.frames(in: .microseconds(12)) == 1)
    #expect(format.frames(in: .microseconds(-12)) == -1)
    #expect(AudioFormat(rate: 0, channels: 1).duration(ofFrames: 10) == .zero)
    #expect(format.description == "44100 Hz stereo")
    #expect(block(Array(repeating: 0, count: 960)).end == Instant(microseconds: 10_000))
}

@Test func timelineCountsPositionsAndFillsAnOverrunsGap() {
    let format = AudioFormat(rate: 48000, channels: 1)
    var timeline = SoundTimeline(format: format)
    let period = [Int16](repeating: 7, count: 480)
    let first = timeline.block(samples: period, time: Instant(microseconds: 1_000_000), afterOverrun: false)
    #expect(first.position == 0 && first.filled == 0)
    let second = timeline.block(samples: period, time: Instant(microseconds: 1_010_300), afterOverrun: false)
    #expect(second.position == 480 && second.time == Instant(microseconds: 1_010_300))
    // 0.5 s lost after the second block, which ended at 1.020300 s.
    let after = timeline.block(samples: period, time: Instant(microseconds: 1_520_300), afterOverrun: true)
    #expect(after.filled == 24000)
    #expect(after.time == Instant(microseconds: 1_020_300))
    #expect(after.position == 960)
    #expect(after.frames == 24480)
    #expect(after.samples.prefix(24000).allSatisfy { $0 == 0 } && after.samples.last == 7)
    let next = timeline.block(samples: period, time: Instant(microseconds: 1_530_300), afterOverrun: false)
    #expect(next.position == 960 + 24480)
}

@Test func timelineNeverFillsBackwardsOrBeforeTheFirstBlock() {
    let format = AudioFormat(rate: 48000, channels: 2)
    var timeline = SoundTimeline(format: format)
    let period = [Int16](repeating: 1, count: 960)
    let first = timeline.block(samples: period, time: Instant(microseconds: 500), afterOverrun: true)
    #expect(first.filled == 0 && first.time == Instant(microseconds: 500))
    let early = timeline.block(samples: period, time: Instant(microseconds: 9_000), afterOverrun: true)
    #expect(early.filled == 0 && early.time == Instant(microseconds: 9_000) && early.position == 480)
}

// MARK: Capture devices

private let loopback = SoundDeviceLine(
    device: "hw:CARD=Loopback,DEV=1", card: 0, cardID: "Loopback", cardName: "Loopback", name: "Loopback PCM",
    minChannels: 1, maxChannels: 32, rates: SoundDeviceLine.standardRates)

@Test func captureDeviceSummaries() {
    #expect(loopback.summary == "hw:CARD=Loopback,DEV=1 (Loopback PCM, 1–32 channels, 8000–192000 Hz)")
    var usb = SoundDeviceLine(
        device: "hw:CARD=Device,DEV=0", card: 1, cardID: "Device", cardName: "USB Audio Device", name: "USB Audio",
        minChannels: 1, maxChannels: 1, rates: [44100, 48000])
    #expect(usb.summary == "hw:CARD=Device,DEV=0 (USB Audio, 1 channel, 44100, 48000 Hz)")
    usb.rates = [16000, 48000, 96000]
    #expect(usb.ratesText == "16000, 48000, 96000 Hz")
    usb.rates = [32000, 44100, 48000]
    #expect(usb.ratesText == "32000–48000 Hz")
    usb.busy = true
    #expect(usb.summary == "hw:CARD=Device,DEV=0 (USB Audio, busy)")
}

@Test func missingCaptureDeviceListsThosePresent() {
    #expect(
        SoundDeviceLine.missing("hw:CARD=X,DEV=0", present: [loopback])
            == "no capture device 'hw:CARD=X,DEV=0'; capture devices present: hw:CARD=Loopback,DEV=1 (Loopback PCM, 1–32 channels, 8000–192000 Hz)"
    )
    #expect(
        SoundDeviceLine.missing("default", reason: "No such file or directory", present: [])
            == "no capture device 'default' (No such file or directory); no capture devices are present")
}

@Test func captureDeviceLineJSON() {
    #expect(
        JSONLine.encode(loopback)
            == #"{"busy":false,"card":0,"card_id":"Loopback","card_name":"Loopback","device":"hw:CARD=Loopback,DEV=1","max_channels":32,"min_channels":1,"name":"Loopback PCM","rates":[8000,16000,22050,32000,44100,48000,88200,96000,192000]}"#
    )
}
