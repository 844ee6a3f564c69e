import ArgumentParser
import Logging
import ServiceLifecycle
import UnixSignals

/// The options a long-running Tally process (broker, worker, gateway) takes beside its own: the configuration file,
/// logging and span export; and the start-up they drive, which is the same for all.
package struct ProcessOptions: ParsableArguments {
    @Option(help: "JSON configuration file; keys are option names. [env: TALLY_CONFIG]")
    package var config: String?

    @OptionGroup package var logging: LoggingOptions

    @Option(name: TracingSettings.otlpEndpoint.flag, help: TracingSettings.otlpEndpoint.help)
    package var otlpEndpoint: String?

    package init() {}

    /// The settings these options read, which end the catalog of every program that takes them (`--config` is
    /// none: it names where settings come from).
    static let settings = LoggingSettings.all + [TracingSettings.otlpEndpoint.documentation]

    /// Watches the parent process (``ParentWatch``), reads `catalog`'s settings (flags over environment over file
    /// over defaults), sets up logging, and runs `body` with both; with JSON logs, an error `body` throws is logged
    /// as JSON (`ProcessLog`).
    /// - Parameters:
    ///   - file: where the process runs from, for the error line's `file` and `source` (the executable).
    package func run(
        label: String, catalog: SettingCatalog, file: String = #fileID, line: UInt = #line,
        _ body: (SettingSources, Logger) async throws -> Void
    ) async throws {
        ParentWatch.start()
        let settings = try SettingSources(configPath: config, catalog: catalog)
        let log = try logging.bootstrap(label: label, settings: settings)
        try await log.run(file: file, line: line) { try await body(settings, log.logger) }
    }

    /// Starts span export when `--otlp-endpoint` (or its environment variable or file key) names a receiver.
    /// - Returns: `nil` when export is off.
    package func startTracing(
        settings: SettingSources, serviceName: String, version: String, logger: Logger
    ) throws -> TracingOptions? {
        try TracingOptions.start(
            endpoint: try settings.resolve(otlpEndpoint, TracingSettings.otlpEndpoint), serviceName: serviceName,
            version: version, logger: logger)
    }

    /// Runs `services` as one group until SIGTERM or SIGINT shuts it down (in reverse order: the last one given
    /// stops first), then, with span export on, sends the spans still buffered, whatever the group did.
    /// - Parameter shutdownLimit: how long the graceful shutdown may take before the services are cancelled; none
    ///   by default (each service bounds its own drain, as the broker and the worker do).
    package func runServiceGroup(
        _ services: [ServiceGroupConfiguration.ServiceConfiguration], tracing: TracingOptions?, logger: Logger,
        shutdownLimit: Duration? = nil
    ) async throws {
        var configuration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownLimit
        let group = ServiceGroup(configuration: configuration)
        guard let tracing else { return try await group.run() }
        try await tracing.flushing { try await group.run() }
    }
}
