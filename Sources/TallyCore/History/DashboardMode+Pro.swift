import TallyProtocol

extension DashboardMode {
    /// Weekly and monthly charts are behind the Pro subscription; daily is free.
    public var needsPro: Bool { self != .daily }
}
