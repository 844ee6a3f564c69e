// swift-tools-version: 6.1
//
// Tally: fitness summaries as a request/reply service on ZeroMQ (Majordomo Protocol 0.1).
// The layering is one-way: bytes → Majordomo → TallyProtocol → TallyCore → back.

import PackageDescription

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TallyCore", targets: ["TallyCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // MARK: Transport
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .target(
            name: "ZeroMQ",
            dependencies: ["CZeroMQ"],
            swiftSettings: strictness
        ),
        .target(
            name: "Majordomo",
            dependencies: [
                "ZeroMQ",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),

        // MARK: Domain
        .target(
            name: "TallyCore",
            swiftSettings: strictness
        ),
        .target(
            name: "TallyProtocol",
            dependencies: ["TallyCore"],
            swiftSettings: strictness
        ),
        .target(
            name: "TallyWorker",
            dependencies: [
                "TallyCore",
                "TallyProtocol",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),

        // MARK: Tests
        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["ZeroMQ"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "MajordomoTests",
            dependencies: ["Majordomo", "ZeroMQ"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyWorkerTests",
            dependencies: [
                "TallyWorker",
                "TallyProtocol",
                "TallyCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyCoreTests",
            dependencies: ["TallyCore"],
            swiftSettings: strictness
        ),
    ]
)
