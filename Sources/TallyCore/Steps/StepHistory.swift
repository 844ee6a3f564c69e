import TallyCalendar
import TallyProtocol

/// Daily step records indexed by date: sorted once, then looked up by binary search or sliced by range.
///
/// Built once per request. Two records for one date are refused (never summed): the caller learns both places.
package struct StepHistory: Sendable {
    /// Two records share a date; indices are positions in the list as given.
    package struct DuplicateDate: Error, Hashable, Sendable {
        package let date: LocalDate
        package let first: Int
        package let second: Int
    }

    /// Records sorted by date, ascending, without duplicates.
    package let records: [DailyRecordParams]

    /// Sorts and indexes `records` (any order).
    /// - Throws: `DuplicateDate` for the first date that appears twice.
    package init(_ records: [DailyRecordParams]) throws(DuplicateDate) {
        let isSorted = zip(records, records.dropFirst()).allSatisfy { $0.date < $1.date }
        if isSorted {
            self.records = records
            return
        }
        let order = records.indices.sorted {
            records[$0].date != records[$1].date ? records[$0].date < records[$1].date : $0 < $1
        }
        for (previous, next) in zip(order, order.dropFirst()) where records[previous].date == records[next].date {
            throw DuplicateDate(date: records[previous].date, first: previous, second: next)
        }
        self.records = order.map { records[$0] }
    }

    /// The record of `date`, or `nil` for no data.
    package subscript(date: LocalDate) -> DailyRecordParams? {
        let index = firstIndex(onOrAfter: date)
        return index < records.count && records[index].date == date ? records[index] : nil
    }

    /// Records with dates in `range`, ascending.
    package func records(in range: ClosedRange<LocalDate>) -> ArraySlice<DailyRecordParams> {
        records[firstIndex(onOrAfter: range.lowerBound)..<firstIndex(after: range.upperBound)]
    }

    /// Records of `month`, ascending.
    package func records(in month: YearMonth) -> ArraySlice<DailyRecordParams> {
        records(in: month.firstDay...month.lastDay)
    }

    /// Index of the first record dated after `date` (`records.count` if none): with `today`, where future
    /// records begin. Safe on the last representable date, which has no next day.
    package func firstIndex(after date: LocalDate) -> Int {
        date == .latest ? records.count : firstIndex(onOrAfter: date.adding(days: 1))
    }

    /// How many records are dated after `date`: with `today`, the future records every step method ignores.
    package func countAfter(_ date: LocalDate) -> Int { records.count - firstIndex(after: date) }

    /// Index of the first record dated `date` or later (`records.count` if none).
    package func firstIndex(onOrAfter date: LocalDate) -> Int {
        var low = 0
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].date < date { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
