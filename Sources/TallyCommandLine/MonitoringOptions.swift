import ArgumentParser

/// Checks the `--http` setting's shape before anything starts.
public enum MonitoringOptions {
    /// `HOST:PORT` with an IPv4 host, or empty for "off".
    /// - Returns: the address text, or `nil` when monitoring is off.
    public static func validated(_ text: String) throws -> String? {
        guard !text.isEmpty else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, UInt16(parts[1]) != nil, parts[0].split(separator: ".").count == 4 else {
            throw ValidationError("--http must be IPV4:PORT, e.g. 0.0.0.0:9100 (got '\(text)')")
        }
        return text
    }
}
