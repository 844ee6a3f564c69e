import TallyCalendar
import TallyJSONCoding

/// `history.months`: the months the history calendar offers (its month picker). Served by `tally.history`.
public enum HistoryMonths: TallyMethod {
    public static let name = "history.months"
    public static let service = TallyService.history

    /// The time frame, the records and `is_pro`, flat in `params`. Goals are not needed to list months.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// Every daily record the client has (default none); records after today are ignored (and counted in the
        /// result).
        public var records: [DailyRecordParams]
        /// Whether the user has Pro (all months) or not (the 3 most recent); default false.
        public var isPro: Bool

        public init(time: RequestTime, records: [DailyRecordParams] = [], isPro: Bool = false) {
            self.time = time
            self.records = records
            self.isPro = isPro
        }

        enum CodingKeys: String, CodingKey {
            case records
            case isPro = "is_pro"
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            records = try container.decodeIfPresent([DailyRecordParams].self, forKey: .records) ?? []
            isPro = try container.decodeIfPresent(Bool.self, forKey: .isPro) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(records, forKey: .records)
            try container.encode(isPro, forKey: .isPro)
        }
    }

}

extension HistoryMonths.Params: JSONDirectDecodable {
    /// `time frame`, `records` and `is_pro` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var records: [DailyRecordParams]?
        var isPro: Bool?
        let read = cursor.object { key, cursor in
            if let read = time.read(key, &cursor) { return read }
            if key.is("records"), records == nil {
                records = cursor.array(of: DailyRecordParams.self)
                return records != nil
            }
            if key.is("is_pro"), isPro == nil {
                isPro = cursor.bool()
                return isPro != nil
            }
            return false
        }
        guard read, let time = time.value else { return nil }
        self.init(time: time, records: records ?? [], isPro: isPro ?? false)
    }
}
