import TallyClient
import TallyProtocol

/// `/readyz` of a gateway: it can do its job when a broker answers and every service of Tally has a live worker
/// there (MMI `mmi.service`), the same question `tally health` asks.
enum Readiness {
    static func servicesAvailable(through client: TallyClient) async -> Bool {
        for service in TallyService.domainServices {
            guard (try? await client.isServiceAvailable(service.rawValue, timeout: .seconds(1))) == true else {
                return false
            }
        }
        return true
    }
}
