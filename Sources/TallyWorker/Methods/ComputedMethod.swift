import TallyProtocol

/// A v1 method as a worker computes it: validate the params, compute with TallyCore, build the result.
///
/// Each method of a domain service conforms in a file of its own (`HistoryMonth+Computation.swift`), all in this
/// one shape, and `MethodRegistry.register(_:)` serves it. The contract (TallyProtocol) says what the params and
/// the result are; this says how one becomes the other.
package protocol ComputedMethod: TallyMethod {
    /// Validates `params`, naming the field of the first problem found, and computes the result.
    /// - Throws: `TallyError`: `invalid_params`, `payload_too_large` (a list over `limits`), `pro_required`.
    static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result
}

extension MethodRegistry {
    /// Registers a computed method: its handler is its computation, under the limits of the dispatcher.
    package mutating func register<M: ComputedMethod>(_ method: M.Type) {
        register(method) { params, context throws(TallyError) in try M.result(for: params, limits: context.limits) }
    }
}
