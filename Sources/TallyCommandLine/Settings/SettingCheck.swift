import ZeroMQ

/// What a setting's value must satisfy: `nil` when the value is fine, else the problem in words that follow the
/// option's name (`--max-queue must be at least 1`).
package struct SettingCheck<Value: Sendable>: Sendable {
    let problem: @Sendable (Value) -> String?

    package init(_ problem: @escaping @Sendable (Value) -> String?) {
        self.problem = problem
    }

    /// Any value that parses.
    package static var any: Self { Self { _ in nil } }
}

extension SettingCheck where Value: Comparable & CustomStringConvertible {
    package static func atLeast(_ minimum: Value) -> Self {
        Self { $0 < minimum ? "must be at least \(minimum)" : nil }
    }

    package static func within(_ range: ClosedRange<Value>) -> Self {
        Self { range.contains($0) ? nil : "must be \(range.lowerBound)...\(range.upperBound)" }
    }
}

extension SettingCheck where Value == DurationArgument {
    package static var positive: Self { Self { $0.duration > .zero ? nil : "must be positive" } }
}

extension SettingCheck where Value == [String] {
    /// ZeroMQ endpoints this program binds or connects to: at least one, each one that libzmq would accept for
    /// that role (so that `127.0.0.1:5555` stops the process at start instead of a reconnect loop).
    package static func endpoints(_ role: EndpointSyntax.Role) -> Self {
        Self { endpoints in
            guard !endpoints.isEmpty else { return "needs at least one endpoint" }
            for endpoint in endpoints {
                do {
                    try EndpointSyntax.check(endpoint, for: role)
                } catch {
                    return "\(error)"
                }
            }
            return nil
        }
    }

    /// At least one value, none empty.
    package static var nonEmpty: Self {
        Self { values in
            guard !values.isEmpty else { return "needs at least one value" }
            return values.contains(where: \.isEmpty) ? "must not hold an empty value" : nil
        }
    }
}
