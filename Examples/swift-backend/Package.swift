// swift-tools-version: 6.1
//
// A backend that calls Tally, as a team outside this repository would write it: a package of its own that depends on
// the `TallyClient` product only (by path here; by URL in yours) and serves HTTP with Hummingbird.
//
//     swift build --package-path Examples/swift-backend        # from the repository root
//
// Not enabled here: `MemberImportVisibility`. Tally's params and results use TallyCalendar's values (`LocalDate` in
// `GoalChange` and `DailyRecordParams`), which TallyProtocol re-exports, and the decoding errors TallyProtocol names
// (`JSONDecodingError`, `FieldPath`): a backend reaches their members through the modules `TallyClient` brings
// along, not through an import of its own.

import PackageDescription

let dependencies: [Target.Dependency] = [
    .product(name: "TallyClient", package: "Tally"),
    .product(name: "Hummingbird", package: "hummingbird"),
    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
    .product(name: "Logging", package: "swift-log"),
]
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "swift-backend",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because SwiftPM otherwise names a path dependency after its folder, which differs between clones.
        .package(name: "Tally", path: "../.."),
        // No traits: the swift-configuration support is not used here, and leaving it out shortens the first build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "StepsAPI",
            dependencies: dependencies,
            swiftSettings: settings
        ),
        // The Swift snippets of the repository's README and of the DocC catalogues (the TallyClient manual and the
        // others, Sources/*/*.docc), compiled here so that they cannot go stale (test_backend.py checks that each of
        // their blocks appears here, line by line).
        .target(
            name: "ReadmeSnippets",
            dependencies: dependencies + [.product(name: "TallyClientTesting", package: "Tally")],
            swiftSettings: settings
        ),
        // The routes against TallyClientTesting's FakeTally: no broker, no worker, no Tally binaries needed.
        .testTarget(
            name: "StepsAPITests",
            dependencies: [
                "StepsAPI",
                .product(name: "TallyClientTesting", package: "Tally"),
                .product(name: "TallyClient", package: "Tally"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
    ]
)
