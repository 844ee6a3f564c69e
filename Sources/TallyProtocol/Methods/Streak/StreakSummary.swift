/// `streak.summary`: everything the streak sheet shows (current and best streak, today's card, milestones and the
/// 30-day heatmap) from the request's goal log and daily records. Served by `tally.streak`.
public enum StreakSummary: TallyMethod {
    public static let name = "streak.summary"
    public static let service = TallyService.streak

    /// The time frame, the goal keys, the records and the heatmap's first column (`week_starts_on`), all flat in
    /// `params`: exactly the keys every step method shares.
    public typealias Params = StepHistoryParams
}
