import TallyProtocol

extension MethodRegistry {
    /// Every method of Tally v1, as `tally-worker` serves them: the `system` methods, and each method of
    /// `TallyMethods.v1` that is a `ComputedMethod` on its own service.
    package static func allMethods(identity: WorkerIdentity) -> MethodRegistry {
        var registry = MethodRegistry()
        registry.registerSystemMethods(identity: identity)
        for service in TallyService.domainServices { registry.registerComputedMethods(of: service) }
        return registry
    }

    /// Registers the methods of `TallyMethods.v1` served by `service` whose computation is written
    /// (`ComputedMethod`). One whose computation is missing is not registered, and `MethodCompletenessTests` names
    /// it.
    package mutating func registerComputedMethods(of service: TallyService) {
        for method in TallyMethods.v1 where method.service == service {
            if let selective = method as? any SelectiveMethod.Type {
                register(selective)
            } else if let computed = method as? any ComputedMethod.Type {
                register(computed)
            }
        }
    }
}
