// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for SlateCore's parsers, one executable per parser.
// Build and run them with `scripts/fuzz TARGET [SECONDS]` from the repository root.
// To add a target: create Sources/fuzz-NAME/FuzzNAME.swift defining
// `LLVMFuzzerTestOneInput`, list "fuzz-NAME" below and in scripts/fuzz, and add
// its seeds in Corpus/fuzz-NAME (README.md).
let fuzzTargets = ["fuzz-evemu", "fuzz-libinput", "fuzz-profile", "fuzz-command", "fuzz-action"]

let package = Package(
    name: "SlateFuzz",
    dependencies: [.package(name: "Slate", path: "..")],
    targets: [
        .target(name: "FuzzSupport")
    ]
        + fuzzTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport", .product(name: "SlateCore", package: "Slate")])
        }
)
