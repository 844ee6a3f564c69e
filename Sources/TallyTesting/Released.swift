/// Runs `body` with `resource`, then awaits `release(resource)` whether `body` returned or threw, and returns or
/// rethrows what `body` did.
///
/// The end of every scoped helper here (``withCluster(workers:heartbeats:brokerArguments:workerArguments:logLevel:_:)``,
/// ``VirtualNetwork/withNetwork(hosts:_:)``): their clean-up (stopping processes, deleting namespaces) must be
/// awaited, and a `defer` body cannot await.
func released<Resource, Result>(
    _ resource: Resource, by release: (Resource) async -> Void, after body: (Resource) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(resource)
        await release(resource)
        return result
    } catch {
        await release(resource)
        throw error
    }
}
