import TallyProtocol

extension DashboardMode {
    /// Weekly and monthly charts are behind the Pro subscription; daily is free.
    package var needsPro: Bool { self != .daily }
}
