import TallyJSONCoding
import TallyProtocol

/// A computed method whose params carry far more than its result shows, and whose worker reads them straight off
/// the bytes into a form of its own (`Selection`): everything checked as `result(for:limits:)` checks it, only what
/// the result needs kept.
///
/// Why: `workout.day` shows one day, and its params are the client's whole history (two years are ~12,000 sets,
/// ~600 KB). Building every exercise and set of every day as values, only to check them and let them go, would be
/// most of the request; passing over the other days' exercises while checking their values costs a fraction.
///
/// The contract with the params: `select(_:limits:)` answers only for a document the standard decoder reads to
/// params `result(for:limits:)` answers with a result (every part of every element within its bounds), and then
/// `result(for selection:limits:)` gives that same result, or the same error when the request is wrong as a
/// whole (ids repeated across workouts, a date after today). Anything else is `nil`, and the params are read whole
/// and answered by `result(for:limits:)`, which names the field. `SelectionParityTests` holds the two paths to the
/// same answers.
package protocol SelectiveMethod: ComputedMethod {
    /// What the worker keeps of the params.
    associatedtype Selection: Sendable

    /// Reads the params at `cursor`, checking every element under `limits`, into what the result needs; `nil`
    /// (the cursor left anywhere) when anything is not plain or not valid.
    static func select(_ cursor: inout JSONCursor, limits: RequestLimits) -> Selection?

    /// Computes the result of a selection read by `select(_:limits:)`.
    /// - Throws: the errors of `result(for:limits:)` that concern the request as a whole.
    static func result(for selection: Selection, limits: RequestLimits) throws(TallyError) -> Result
}

extension MethodRegistry {
    /// Registers a selective method: the request's params are read by its `select(_:limits:)` when they can be,
    /// else directly as `Params` (a request that must be refused, still read in one pass), else by the standard
    /// decoder.
    package mutating func register<M: SelectiveMethod>(_ method: M.Type) {
        register(method) { params, context throws(TallyError) in try M.result(for: params, limits: context.limits) }
        let readWhole = entries[M.name]?.readParams
        setDirectRead(of: M.name) { cursor, limits in
            var selecting = cursor
            guard let selection = M.select(&selecting, limits: limits) else { return readWhole?(&cursor, limits) }
            cursor = selecting
            return { context in
                RequestDispatcher.answer(M.self, params: selection, context: context) {
                    selection, context throws(TallyError) in try M.result(for: selection, limits: context.limits)
                }
            }
        }
    }
}
