// swift-tools-version: 6.1
//
// libFuzzer targets for Tally's parsers of untrusted bytes. A package of its own, referencing Tally by path,
// so that the fuzzer and address-sanitizer flags never reach the main build. Built and run by `scripts/fuzz`:
//
//     swift build --package-path Fuzz --sanitize fuzzer --sanitize address --product FuzzMajordomoWire

import PackageDescription

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TallyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MDP frames → BrokerInbound / WorkerInbound / ClientInbound, and the broker state machine.
        .executableTarget(
            name: "FuzzMajordomoWire",
            dependencies: [
                .product(name: "Majordomo", package: "Tally"),
                .product(name: "ZeroMQ", package: "Tally"),
            ],
            swiftSettings: strictness
        ),
        // A params document → each method's direct read (JSONDirectDecodable) against the standard decoder.
        .executableTarget(
            name: "FuzzDirectDecoding",
            dependencies: [
                .product(name: "TallyProtocol", package: "Tally"),
                .product(name: "TallyJSONCoding", package: "Tally"),
            ],
            swiftSettings: strictness
        ),
        // A request body → RequestDispatcher.respond: decode, validate, compute, encode.
        .executableTarget(
            name: "FuzzRequestDispatcher",
            dependencies: [
                .product(name: "TallyWorker", package: "Tally"),
                .product(name: "TallyProtocol", package: "Tally"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
    ]
)
