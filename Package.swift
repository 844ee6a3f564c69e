// swift-tools-version: 6.1
//
// Tally: fitness summaries as a request/reply service on ZeroMQ (Majordomo Protocol 0.1).
// The layering is one-way: bytes → Majordomo → TallyProtocol (the contract, decoded once) → TallyWorker (each
// method: validate → TallyCore → result) → back. A client links TallyProtocol and never TallyCore.

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
        // What a backend that calls Tally depends on: the typed client and the v1 contract with its calendar values
        // (not the computations, the transport or the codec, which are this package's own: `package` declarations).
        .library(name: "TallyClient", targets: ["TallyClient"]),
        .library(name: "TallyProtocol", targets: ["TallyProtocol"]),
        .library(name: "TallyCalendar", targets: ["TallyCalendar"]),
        // For a backend's own tests: `FakeTally`, the real client against handlers the test gives, in process.
        .library(name: "TallyClientTesting", targets: ["TallyClientTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // W3C trace context: TallyClient starts its spans with whatever tracer the backend bootstrapped, and the
        // broker and worker record theirs with TallyTracing's (ServiceContext comes with it since 1.7).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // `swift package generate-documentation`: the products' DocC catalogues, built with warnings as errors by
        // scripts/check-docs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // tally-gateway only: HTTP/1.1 on SwiftNIO (HummingbirdCore), TLS by swift-nio-ssl. No traits: the
        // swift-configuration support is not used, and leaving it out shortens the first build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Test only: property-based tests of the zone arithmetic (Tests/TallyWorkerTests/Zones).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
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
        // Linux calls out of Swift's reach (prctl, mallopt): thread names, malloc tuning.
        .systemLibrary(name: "CLinux"),
        .target(
            name: "Majordomo",
            dependencies: [
                "ZeroMQ",
                "CLinux",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),

        // MARK: Domain
        // Civil dates, months, weekdays and RFC 3339 instants: the values the contract and the computations share.
        .target(
            name: "TallyCalendar",
            swiftSettings: strictness
        ),
        // The computations read the contract's values as decoded (records, samples, workouts, sessions, goal changes)
        // and speak its closed sets (day states, units, activity types, chart modes): a request is checked by the
        // worker and then computed on as it came, with no field-for-field twin to convert into. What they compute
        // stays their own (unrounded figures), and the worker words it as v1 results.
        .target(
            name: "TallyCore",
            dependencies: ["TallyCalendar", "TallyProtocol"],
            swiftSettings: strictness
        ),
        .target(
            name: "TallyJSONCoding",
            swiftSettings: strictness
        ),
        // The v1 contract. Its wire structs are generated from Protocol/schemas at build time (WireTypes), so that
        // each member's name, type and wire name is written once, in the schema; what the schemas cannot say
        // (fast paths, checks, conveniences) is written beside them in extensions.
        .target(
            name: "TallyProtocol",
            dependencies: ["TallyCalendar", "TallyJSONCoding"],
            swiftSettings: strictness,
            plugins: ["WireTypes"]
        ),
        .executableTarget(
            name: "WireTypeGenerator",
            dependencies: ["TallyJSONCoding"],
            swiftSettings: strictness
        ),
        .plugin(
            name: "WireTypes",
            capability: .buildTool(),
            dependencies: ["WireTypeGenerator"]
        ),
        .target(
            name: "TallyWorker",
            dependencies: [
                "TallyCalendar",
                "TallyCore",
                "TallyJSONCoding",
                "TallyProtocol",
                "TallyTracing",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                "Majordomo",
                "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "TallyBroker",
            dependencies: [
                "TallyProtocol",
                "TallyTracing",
                "Majordomo",
                "ZeroMQ",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "TallyClient",
            dependencies: [
                "TallyProtocol",
                "TallyJSONCoding",
                "Majordomo",
                "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictness,
            // Its typed calls are generated from Protocol/schemas, one per method (WireTypes).
            plugins: ["WireTypes"]
        ),

        // MARK: Tracing
        // A W3C tracer for the broker's and worker's spans, and an OTLP/HTTP JSON exporter on plain sockets: no
        // HTTP client or protobuf library in the build.
        .target(
            name: "TallyTracing",
            dependencies: [
                "TallyProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictness
        ),

        // MARK: Operations
        .target(
            name: "TallyMonitoring",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        // The broker's operator console: its events and snapshot as a live page, a versioned JSON document and
        // the tables `tally top` prints.
        .target(
            name: "TallyConsole",
            dependencies: [
                "Majordomo",
                "TallyBroker",
                "TallyCalendar",
                "TallyJSONCoding",
                "TallyMonitoring",
                "TallyProtocol",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "TallyLoad",
            dependencies: [
                "TallyCalendar",
                "TallyClient",
                "TallyJSONCoding",
                "TallyProtocol",
                "TallyCore",
                "ZeroMQ",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictness
        ),

        // MARK: HTTP gateway
        // Any language over HTTP: POST /v1/{method} through TallyClient, and the OpenAPI document generated from
        // Protocol/schemas and Protocol/examples at build time (WireTypes). The only targets that depend on
        // Hummingbird.
        .target(
            name: "TallyGateway",
            dependencies: [
                "TallyCalendar",
                "TallyClient",
                "TallyJSONCoding",
                "TallyProtocol",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness,
            plugins: ["WireTypes"]
        ),
        .executableTarget(
            name: "tally-gateway",
            dependencies: [
                "TallyClient",
                "TallyCommandLine",
                "TallyGateway",
                "TallyMonitoring",
                "TallyProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),

        // MARK: Executables
        .target(
            name: "TallyCommandLine",
            dependencies: [
                "CLinux",
                "Majordomo",
                "TallyCalendar",
                "TallyClient",
                "TallyMonitoring",
                "TallyProtocol",
                "TallyTracing",
                "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "tally-broker",
            dependencies: [
                "TallyCommandLine",
                "TallyConsole",
                "TallyMonitoring",
                "TallyBroker",
                "Majordomo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "tally-worker",
            dependencies: [
                "TallyCommandLine",
                "TallyMonitoring",
                "TallyWorker",
                "TallyProtocol",
                "Majordomo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "tally",
            dependencies: [
                "TallyCalendar",
                "TallyCommandLine",
                "TallyConsole",
                "TallyJSONCoding",
                "TallyMonitoring",
                "TallyTracing",
                "ZeroMQ",
                "TallyClient",
                "TallyProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "tally-load",
            dependencies: [
                "TallyLoad",
                "TallyClient",
                "TallyCommandLine",
                "TallyCore",
                "TallyProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),

        // MARK: Tests
        .target(
            name: "TallyTesting",
            dependencies: [
                "TallyJSONCoding",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TallyCalendar",
                "TallyJSONCoding",
                "TallyTesting",
                "TallyClient",
                "TallyCommandLine",
                "TallyProtocol",
                "Majordomo",
                "ZeroMQ",
                "tally-broker",
                "tally-worker",
                "tally",
                "tally-load",
                "tally-gateway",
                "TallyTracing",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: [
                "Interop/mdp_peers.py", "MultiHost/counting_client.py", "MultiHost/many_clients.py",
                "MultiHost/steady_client.py", "MultiHost/zmtp30_peer.py",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["ZeroMQ"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyCommandLineTests",
            dependencies: [
                "TallyCommandLine", "TallyMonitoring", "Majordomo", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "MajordomoTests",
            dependencies: ["Majordomo", "ZeroMQ", "TallyTesting"],
            swiftSettings: strictness
        ),
        .target(
            name: "TallyClientTesting",
            dependencies: [
                "TallyClient", "TallyJSONCoding", "TallyProtocol", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // The client's own logic (deadlines, retries, back-off, waiting to run, errors) over a scripted transport: no
        // sockets, no clock but the calls' own.
        .testTarget(
            name: "TallyClientTests",
            dependencies: [
                "TallyClient", "TallyClientTesting", "TallyJSONCoding", "TallyProtocol", "TallyTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyWorkerTests",
            dependencies: [
                "TallyCalendar",
                "TallyJSONCoding",
                "TallyLoad",
                "TallyTesting",
                "TallyWorker",
                "TallyProtocol",
                "TallyCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Zones/zone_peer.py"],
            swiftSettings: strictness
        ),
        // The contract alone: envelopes, trace context, the scans of bodies nobody parses.
        .testTarget(
            name: "TallyProtocolTests",
            dependencies: ["TallyProtocol", "TallyJSONCoding", "TallyCalendar"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyBrokerTests",
            dependencies: [
                "TallyBroker",
                "TallyProtocol",
                "Majordomo",
                "ZeroMQ",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyConsoleTests",
            dependencies: [
                "TallyConsole",
                "TallyJSONCoding",
                "TallyTesting",
                "Majordomo",
                "ZeroMQ",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyMonitoringTests",
            dependencies: [
                "TallyMonitoring",
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyGatewayTests",
            dependencies: [
                "TallyCalendar", "TallyGateway", "TallyJSONCoding", "TallyProtocol", "TallyTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "WireTypeGeneratorTests",
            dependencies: ["WireTypeGenerator", "TallyJSONCoding"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyJSONCodingTests",
            dependencies: ["TallyJSONCoding"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyCalendarTests",
            dependencies: ["TallyCalendar"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyCoreTests",
            dependencies: ["TallyCalendar", "TallyCore", "TallyProtocol"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyTracingTests",
            dependencies: [
                "TallyTracing",
                "TallyTesting",
                "TallyProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyTestingTests",
            dependencies: ["TallyTesting"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TallyLoadTests",
            dependencies: ["TallyLoad", "TallyTesting"],
            swiftSettings: strictness
        ),
    ]
)

// MARK: Opt-in: benchmarks and fuzzing
//
// In this package, so that they reach what only the package's own targets see (`package` declarations), but only
// when asked for, so that the default build and `swift test` never build them nor resolve their dependencies (as
// valkey-swift does). Each has a scratch path of its own, which keeps its flags (release with the malloc
// interposer; libFuzzer and address sanitizer) out of .build/:
//
//     TALLY_BENCHMARKS=1 swift package --scratch-path .build-bench --disable-sandbox benchmark   (Benchmarks/README.md)
//     TALLY_FUZZ=1 swift build --scratch-path .build-fuzz --sanitize fuzzer --sanitize address …  (scripts/fuzz)

if Context.environment["TALLY_BENCHMARKS"] == "1" {
    package.dependencies += [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ]
    package.targets += [
        // Repeats one codec or dispatch step, for `perf record` and callgrind (see its main.swift).
        .executableTarget(
            name: "codec-loop",
            dependencies: [
                "BenchmarkFixtures", "TallyJSONCoding", "TallyLoad", "TallyProtocol", "TallyWorker", "Majordomo",
                "ZeroMQ", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Sources/codec-loop",
            swiftSettings: strictness
        ),
        // The broker's work per request without sockets, for callgrind (see its main.swift).
        .executableTarget(
            name: "transport-loop",
            dependencies: ["Majordomo", "TallyBroker", "TallyProtocol", "ZeroMQ"],
            path: "Benchmarks/Sources/transport-loop",
            swiftSettings: strictness
        ),
        // The broker in a plain process, for callgrind (see its main.swift).
        .executableTarget(
            name: "broker-process",
            dependencies: ["TallyBroker", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/Sources/broker-process",
            swiftSettings: strictness
        ),
        // Request bodies built from the load tool's seeded generators, shared by every benchmark.
        .target(
            name: "BenchmarkFixtures",
            dependencies: ["TallyCore", "TallyProtocol", "TallyLoad"],
            path: "Benchmarks/Benchmarks/Shared",
            swiftSettings: strictness
        ),
        // ordo-one/benchmark finds its targets by their folder's parent, Benchmarks/.
        .executableTarget(
            name: "JSONCodec",
            dependencies: [
                "BenchmarkFixtures", "TallyJSONCoding", "TallyProtocol",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Benchmarks/JSONCodec",
            swiftSettings: strictness,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Methods",
            dependencies: [
                "BenchmarkFixtures", "TallyCore", "TallyJSONCoding", "TallyProtocol", "TallyWorker",
                .product(name: "Benchmark", package: "benchmark"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Benchmarks/Methods",
            swiftSettings: strictness,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
}

if Context.environment["TALLY_FUZZ"] == "1" {
    package.targets += [
        // MDP frames → BrokerInbound / WorkerInbound / ClientInbound, and the broker state machine.
        .executableTarget(
            name: "FuzzMajordomoWire",
            dependencies: ["Majordomo", "ZeroMQ"],
            path: "Fuzz/Sources/FuzzMajordomoWire",
            swiftSettings: strictness
        ),
        // A params document → each method's direct read (JSONDirectDecodable) against the standard decoder, and
        // workout.day's selective read against the whole params' answer.
        .executableTarget(
            name: "FuzzDirectDecoding",
            dependencies: ["TallyProtocol", "TallyJSONCoding", "TallyWorker"],
            path: "Fuzz/Sources/FuzzDirectDecoding",
            swiftSettings: strictness
        ),
        // A request body → RequestDispatcher.respond: decode, validate, compute, encode.
        .executableTarget(
            name: "FuzzRequestDispatcher",
            dependencies: ["TallyWorker", "TallyProtocol", .product(name: "Logging", package: "swift-log")],
            path: "Fuzz/Sources/FuzzRequestDispatcher",
            swiftSettings: strictness
        ),
    ]
}
