import Testing

@testable import SlateCore

@Suite struct TakeRouterTests {
    typealias Router = TakeRouter<Int>

    /// Frame n of a 30 fps stream is captured at n * 33.333 ms; every 30th is a keyframe
    /// unless the router asks for one.
    struct Camera {
        var router: Router
        var next = 0
        var files: [[Int]] = []
        var open = false

        func time(_ n: Int) -> Instant { Instant(microseconds: Int64(n) * 33_333) }

        mutating func run(until frame: Int) {
            while next < frame {
                let forced = router.needsKeyframe(forFrameAt: time(next))
                apply(router.packet(.init(time: time(next), isKeyframe: forced || next % 30 == 0, packet: next)))
                next += 1
            }
        }

        mutating func apply(_ outputs: [Router.Output]) {
            for output in outputs {
                switch output {
                case .open:
                    #expect(!open)
                    open = true
                    files.append([])
                case .write(let timed):
                    #expect(open)
                    files[files.count - 1].append(timed.packet)
                case .close:
                    #expect(open)
                    open = false
                }
            }
        }
    }

    @Test func aTakeStartsAtTheFirstFrameAtOrAfterThePressWithAKeyframe() {
        var camera = Camera(router: Router())
        camera.run(until: 40)
        camera.apply(camera.router.start(at: Instant(microseconds: 40 * 33_333 + 10_000)))
        camera.run(until: 100)
        camera.apply(camera.router.stop(at: Instant(microseconds: 100 * 33_333 + 5_000)))
        camera.run(until: 120)
        #expect(camera.files == [Array(41...100)])
        #expect(!camera.open)
    }

    @Test func prerollStartsAtTheKeyframeAtOrBeforePressMinusPreroll() {
        var camera = Camera(router: Router(preroll: .seconds(1)))
        camera.run(until: 100)
        #expect(camera.router.ringCount <= 70)
        camera.apply(camera.router.start(at: camera.time(95)))
        #expect(camera.files.first?.first == 60)
        camera.run(until: 130)
        camera.apply(camera.router.stop(at: camera.time(130)))
        camera.run(until: 140)
        #expect(camera.files == [Array(60...129)])
    }

    @Test func prerollWithoutEnoughHistoryStartsAtTheOldestKeyframe() {
        var camera = Camera(router: Router(preroll: .seconds(2)))
        camera.run(until: 45)
        camera.apply(camera.router.start(at: camera.time(44)))
        camera.run(until: 50)
        #expect(camera.files.first?.first == 0)
    }

    @Test func aStopBeforeTheFirstFrameLeavesNoTake() {
        var camera = Camera(router: Router())
        camera.run(until: 10)
        camera.apply(camera.router.start(at: Instant(microseconds: 10 * 33_333 - 5)))
        camera.apply(camera.router.stop(at: Instant(microseconds: 10 * 33_333 - 1)))
        camera.run(until: 20)
        #expect(camera.files.isEmpty)
        #expect(!camera.router.isRecording)
    }

    @Test func theCameraEndingClosesTheTake() {
        var camera = Camera(router: Router())
        camera.apply(camera.router.start(at: .init(microseconds: 0)))
        camera.run(until: 10)
        camera.apply(camera.router.end())
        #expect(camera.files == [Array(0...9)])
        #expect(!camera.open)
        camera.apply(camera.router.start(at: camera.time(12)))
        camera.run(until: 15)
        #expect(camera.files.count == 2)
    }

    @Test func aStartWhileTheTakeIsClosingOpensTheNextTakeWithTheFrameThatClosedIt() {
        var camera = Camera(router: Router())
        camera.apply(camera.router.start(at: camera.time(5)))
        camera.run(until: 40)
        camera.apply(camera.router.stop(at: camera.time(40)))
        camera.apply(camera.router.start(at: camera.time(40)))
        camera.run(until: 70)
        camera.apply(camera.router.stop(at: camera.time(70)))
        camera.run(until: 80)
        #expect(camera.files == [Array(5...39), Array(40...69)])
        #expect(!camera.open && !camera.router.isRecording)
    }

    @Test func aQueuedStartWaitsForItsOwnTimeAndStartsWithAKeyframe() {
        var camera = Camera(router: Router())
        camera.apply(camera.router.start(at: camera.time(5)))
        camera.run(until: 40)
        camera.apply(camera.router.stop(at: camera.time(40)))
        camera.apply(camera.router.start(at: camera.time(47)))
        camera.run(until: 60)
        #expect(camera.files == [Array(5...39), Array(47...59)])
        #expect(camera.open)
    }

    @Test func aQueuedStartStoppedBeforeTheCloseLeavesNoTake() {
        var camera = Camera(router: Router())
        camera.apply(camera.router.start(at: camera.time(5)))
        camera.run(until: 40)
        camera.apply(camera.router.stop(at: camera.time(40)))
        camera.apply(camera.router.start(at: camera.time(40)))
        camera.apply(camera.router.stop(at: camera.time(40)))
        camera.run(until: 60)
        #expect(camera.files == [Array(5...39)])
        #expect(!camera.open && !camera.router.isRecording)
    }

    @Test func anAbandonedTakeRecordsNothingUntilTheNextStart() {
        var camera = Camera(router: Router())
        camera.apply(camera.router.start(at: camera.time(5)))
        camera.run(until: 6)
        camera.router.abandon()
        camera.open = false
        camera.run(until: 20)
        #expect(camera.files == [[5]])
        #expect(!camera.router.isRecording)
        camera.apply(camera.router.start(at: camera.time(20)))
        camera.run(until: 25)
        #expect(camera.files == [[5], Array(20...24)])
    }
}
