/// Every method of Tally v1: the one list of them in Swift. Its list, `v1`, is generated from Protocol/schemas (one
/// entry per `methods/NAME.params.schema.json`, by the WireTypes plugin), so that a method added to the protocol is
/// in it, and does not compile until its type is written in TallyProtocol.
///
/// The load tool's services, the CLI's areas and the worker's registry follow from it, and `MethodCompletenessTests`
/// holds it, the worker's registry and the load tool's generators to the methods of Protocol/schemas: a method
/// forgotten in one of them fails that test, by name.
package enum TallyMethods {
    /// The areas of the method names (`history` of `history.month`), in order of first appearance.
    package static var areas: [String] {
        var areas: [String] = []
        for method in v1 {
            let area = String(method.name.prefix { $0 != "." })
            if !areas.contains(area) { areas.append(area) }
        }
        return areas
    }
}
