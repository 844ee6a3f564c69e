// swift-tools-version: 6.1
//
// Tally's benchmarks, kept out of the main package so that its build and tests never depend on them.
// Run: `swift package --disable-sandbox benchmark` here (see README.md).

import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory, which differs between clones and worktrees.
let tally = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TallyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "codec-loop",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "TallyJSONCoding", package: tally),
                .product(name: "TallyLoad", package: tally),
                .product(name: "TallyProtocol", package: tally),
                .product(name: "TallyWorker", package: tally),
                .product(name: "Majordomo", package: tally),
                .product(name: "ZeroMQ", package: tally),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // The broker's work per request without sockets, for callgrind (see main.swift).
        .executableTarget(
            name: "transport-loop",
            dependencies: [
                .product(name: "Majordomo", package: tally),
                .product(name: "TallyBroker", package: tally),
                .product(name: "TallyProtocol", package: tally),
                .product(name: "ZeroMQ", package: tally),
            ],
            swiftSettings: strictness
        ),
        // Request bodies built from the load tool's seeded generators, shared by every benchmark.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "TallyCore", package: tally),
                .product(name: "TallyProtocol", package: tally),
                .product(name: "TallyLoad", package: tally),
            ],
            path: "Benchmarks/Shared",
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "JSONCodec",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TallyJSONCoding", package: tally),
                .product(name: "TallyProtocol", package: tally),
            ],
            path: "Benchmarks/JSONCodec",
            swiftSettings: strictness,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Methods",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TallyCore", package: tally),
                .product(name: "TallyJSONCoding", package: tally),
                .product(name: "TallyProtocol", package: tally),
                .product(name: "TallyWorker", package: tally),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Methods",
            swiftSettings: strictness,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
