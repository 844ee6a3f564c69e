import ArgumentParser
import ZeroMQ

/// Checks the endpoints an option resolved to (from a flag, the environment or the configuration file), so that a
/// process given `127.0.0.1:5555` instead of `tcp://127.0.0.1:5555` stops at start and says which option is wrong.
public enum EndpointOptions {
    /// - Parameters:
    ///   - endpoints: the option's values.
    ///   - option: its name without dashes (`broker`), for the message.
    ///   - variable: its environment variable, for the message.
    ///   - role: bound or connected to.
    /// - Throws: `ValidationError` naming the option and what is wrong with the first bad endpoint.
    public static func check(
        _ endpoints: [String], option: String, variable: String, role: EndpointSyntax.Role
    ) throws -> [String] {
        guard !endpoints.isEmpty else { throw ValidationError("--\(option) needs at least one endpoint") }
        for endpoint in endpoints {
            do {
                try EndpointSyntax.check(endpoint, for: role)
            } catch {
                throw ValidationError("--\(option) (or \(variable)): \(error)")
            }
        }
        return endpoints
    }
}
