import TallyCalendar
import TallyProtocol

/// The months the history calendar offers: every month holding a record up to today, plus the current month
/// (shown even before its first record), ascending. Free users see the most recent three; Pro users all.
package struct AvailableMonths: Sendable, Hashable {
    /// How many of the most recent months a free user sees (the seed's `suffix(3)`).
    package static let freeMonthCount = 3

    /// Every available month, ascending; never empty (the current month is always there).
    package let all: [YearMonth]
    /// The month of today.
    package let current: YearMonth
    /// Records dated after today: they neither make a month available nor count anywhere.
    package let futureRecordsIgnored: Int

    package init(history: StepHistory, today: LocalDate) {
        let firstFuture = history.firstIndex(after: today)
        var months: [YearMonth] = []
        for record in history.records[..<firstFuture] where months.last != record.date.yearMonth {
            months.append(record.date.yearMonth)
        }
        // Records are sorted and none is after today, so the current month can only be missing at the end.
        if months.last != today.yearMonth { months.append(today.yearMonth) }
        self.all = months
        self.current = today.yearMonth
        self.futureRecordsIgnored = history.records.count - firstFuture
    }

    /// The months a user may open.
    package func visible(isPro: Bool) -> ArraySlice<YearMonth> {
        isPro ? all[...] : all.suffix(Self.freeMonthCount)
    }

    /// How many available months a free user does not see (0 for Pro).
    package func lockedCount(isPro: Bool) -> Int {
        all.count - visible(isPro: isPro).count
    }

    /// Whether opening `month` needs Pro: it lies before the first month a free user sees. Months between visible
    /// ones (a month without records) are free to open: they hold nothing a subscription would unlock.
    package func needsPro(_ month: YearMonth) -> Bool {
        month < visible(isPro: false).first!
    }
}
