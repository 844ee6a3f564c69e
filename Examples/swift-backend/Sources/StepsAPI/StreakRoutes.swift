import Foundation
import Hummingbird
import Logging
import TallyClient
import TallyProtocol

/// The API: each route answers from one Tally call, or with an `APIError`.
///
/// - `GET /users/{id}/streak`: the streak card of a user whose records this backend holds.
/// - `POST /streak`: the same for records the app sends (`StreakRequest`).
/// - `GET /healthz`: 200 while the broker has a live `tally.streak` worker, else 503.
struct StreakRoutes: Sendable {
    /// One client for every request: calls from many requests share its connection.
    let tally: TallyClient

    func add(to router: Router<BasicRequestContext>) {
        router.get("users/:id/streak") { _, context in
            try await userStreak(id: context.parameters.require("id"), logger: context.logger)
        }
        router.post("streak") { request, context in
            try await streak(of: request, context: context)
        }
        router.get("healthz") { _, _ in
            await health()
        }
    }

    func userStreak(id: String, logger: Logger) async throws(APIError) -> StreakCard {
        guard let user = User.known[id] else {
            throw APIError(.notFound, "unknown_user", "no user '\(id)'")
        }
        let time = RequestTime(timeZone: user.timeZone, now: Date())
        let params = StreakSummary.Params(
            time: time, goals: .constant(user.goal, at: time), records: user.records(at: time))
        do {
            return try await summary(params, logger: logger)
        } catch {
            guard error.status.kind == .clientError else { throw error }
            // Params built from this backend's own data: if Tally refuses them, the fault is ours, not the caller's.
            logger.error(
                "tally refused stored data", metadata: ["user.id": "\(id)", "problem": "\(error.body.message)"])
            throw APIError(.internalServerError, "internal", "the stored records could not be summarised")
        }
    }

    func streak(of request: Request, context: BasicRequestContext) async throws -> StreakCard {
        let body: StreakRequest
        do {
            body = try await context.requestDecoder.decode(StreakRequest.self, from: request, context: context)
        } catch let error as any HTTPResponseError {
            throw error  // the body is larger than the context's limit
        } catch {
            throw APIError(decoding: error)
        }
        let time = RequestTime(zone: .named(body.timeZone), reference: .now(body.now ?? Timestamp(Date())))
        // The app's records go to Tally as they are: Tally checks them and names what is wrong.
        let params = StreakSummary.Params(time: time, goals: .constant(body.goal, at: time), records: body.records)
        do {
            return try await summary(params, logger: context.logger)
        } catch {
            throw StreakRequest.inBodyTerms(error)
        }
    }

    func health() async -> EditedResponse<Health> {
        let served =
            (try? await tally.isServiceAvailable(StreakSummary.service.rawValue, timeout: .seconds(1))) ?? false
        return EditedResponse(status: served ? .ok : .serviceUnavailable, response: Health(tally: served))
    }

    /// Calls `streak.summary`; a failure is logged in full and answered with its code and message only.
    func summary(_ params: StreakSummary.Params, logger: Logger) async throws(APIError) -> StreakCard {
        do {
            return StreakCard(try await tally.streakSummary(params))
        } catch {
            let answer = APIError(tally: error)
            var metadata: Logger.Metadata = ["tally.error.code": "\(error.code)"]
            if !error.brokers.isEmpty {
                metadata["tally.brokers"] = .array(error.brokers.map { "\($0.endpoint): \($0.status)" })
            }
            // The description lists every attempt when the call was retried.
            logger.log(
                level: answer.status.kind == .clientError ? .info : .warning, "tally: \(error)", metadata: metadata)
            throw answer
        }
    }
}

/// `POST /streak`'s body: `{"time_zone": "Europe/Berlin", "goal": 8000, "records": [{"date": "2026-11-21",
/// "steps": 9500}]}`, and optionally `"now"` (RFC 3339; the server's clock when absent) to ask as of a moment.
///
/// The fields decode into Tally's own wire types, which check zone names and dates as they decode.
struct StreakRequest: Decodable {
    var timeZone: ZoneName
    var goal: Int
    var records: [DailyRecordParams]
    var now: Timestamp?

    enum CodingKeys: String, CodingKey {
        case goal, records, now
        case timeZone = "time_zone"
    }

    /// Tally's answer with the fields it names (`params.records[2].date`, `params.goal_log[0].goal`) said as this
    /// body names them (`records[2].date`, `goal`).
    static func inBodyTerms(_ error: APIError) -> APIError {
        guard var field = error.body.field, let problem = error.body.problem else { return error }
        if field.hasPrefix("params.") {
            field.removeFirst("params.".count)
        }
        if field.hasPrefix("goal_log") {
            field = "goal"
        }
        var answer = error
        answer.body.field = field
        answer.body.message = "\(field): \(problem)"
        return answer
    }
}

/// `GET /healthz`'s body.
struct Health: ResponseEncodable {
    /// Whether Tally can compute streaks right now.
    var tally: Bool
}
