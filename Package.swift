// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Slate",
    products: [
        .executable(name: "slate", targets: ["slate"]),
        .library(name: "SlateCore", targets: ["SlateCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // Without its traits: no full Foundation (and its ICU data) and no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.0"),
    ],
    targets: [
        // One system-library target per C library: pkg-config name and Debian provider.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CV4L2", pkgConfig: "libv4l2", providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(
            name: "CAV", pkgConfig: "libavformat",
            providers: [
                .apt([
                    "libavcodec-dev", "libavformat-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev",
                    "libswresample-dev",
                ])
            ]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CGpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // C macros and ioctl numbers turned into functions and constants.
        .target(name: "CSlateShim"),
        // libav's log (a C varargs callback) as formatted lines.
        .target(name: "CAVLog", dependencies: ["CAV"]),

        // YAML documents (profiles, presets, libinput recordings) composed by libyaml into
        // a tree of nodes with their places, within budgets; no Foundation.
        .target(name: "SlateYAML", dependencies: ["CYAML"]),
        // Pure Swift: SlateYAML for profiles, RealModule for the math (decibels).
        .target(
            name: "SlateCore",
            dependencies: ["SlateYAML", .product(name: "RealModule", package: "swift-numerics")]),
        // The only module that imports Glibc: the system-call seam, the event loop,
        // signals, clocks, workers, process launching, folders and files.
        .target(
            name: "SlateSystem",
            dependencies: [
                "SlateCore", "CV4L2", "CSlateShim", .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Slate's devices through their C libraries: evdev, udev, uinput, V4L2, ALSA; QR codes for the terminal.
        .target(
            name: "SlateDevices",
            dependencies: [
                "SlateCore", "SlateSystem", "CEvdev", "CUdev", "CV4L2", "CALSA", "CSlateShim", "CQREncode", "CGpiod",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // libav only: encoding, decoding, filters, take files, exports, thumbnails; the take folder.
        .target(
            name: "SlateMedia",
            dependencies: [
                "SlateCore", "SlateSystem", "CAV", "CAVLog",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The rig's page and HTTP API (Hummingbird): it reads the status the daemon
        // publishes and hands actions back to it; no C, no devices.
        .target(
            name: "SlateWeb",
            dependencies: [
                "SlateCore", "SlateSystem", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Page"]),
        // Links to other machines: MQTT through libmosquitto; OBS through its websocket.
        .target(
            name: "SlateNetwork",
            dependencies: [
                "SlateCore", "SlateSystem", "CMosquitto",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
        // No C: the workers (camera session, take pipeline, exports) and the live rig, wired together.
        .target(
            name: "SlateDaemon",
            dependencies: [
                "SlateCore", "SlateSystem", "SlateDevices", "SlateMedia", "SlateWeb", "SlateNetwork",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .executableTarget(
            name: "slate",
            dependencies: [
                "SlateCore", "SlateSystem", "SlateDevices", "SlateMedia", "SlateDaemon", "SlateNetwork", "SlateWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .executableTarget(
            name: "slate-bench", dependencies: ["SlateCore", "SlateSystem", "SlateDevices", "SlateMedia", "SlateDaemon"]),
        // The rig VM lane's emulated Bluetooth headset (libbluetooth, L2CAP): a test tool, not part of Slate.
        .executableTarget(
            name: "slate-headset",
            dependencies: ["CBluetooth", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        .testTarget(name: "SlateYAMLTests", dependencies: ["SlateYAML"]),
        .testTarget(name: "SlateCoreTests", dependencies: ["SlateCore", "SlateTestSupport"], resources: [.copy("Fixtures")]),
        // One test target per library module; SlateTestSupport holds what several of them share.
        .target(
            name: "SlateTestSupport",
            dependencies: ["SlateSystem", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/SlateTestSupport"),
        .testTarget(
            name: "SlateSystemTests",
            dependencies: ["SlateCore", "SlateSystem", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(
            name: "SlateDevicesTests",
            dependencies: [
                "SlateCore", "SlateSystem", "SlateDevices", "SlateMedia", "CEvdev",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(
            name: "SlateMediaTests",
            dependencies: [
                "SlateCore", "SlateSystem", "SlateMedia", "SlateTestSupport", "CAV",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            resources: [.copy("SoundFiles")]),
        .testTarget(
            name: "SlateDaemonTests",
            dependencies: [
                "SlateCore", "SlateSystem", "SlateDevices", "SlateMedia", "SlateDaemon", "SlateTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(
            name: "SlateWebTests",
            dependencies: ["SlateCore", "SlateSystem", "SlateWeb", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "SlateNetworkTests",
            dependencies: [
                "SlateCore", "SlateNetwork", "SlateSystem", "SlateTestSupport",
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"), .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "slateTests", dependencies: ["slate", "SlateTestSupport"]),
    ]
)
