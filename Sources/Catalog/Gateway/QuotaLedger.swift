import SharedState
import Synchronization

/// The daily quota of each provider (`--daily-quota youtube=10000,…`): the units of the
/// requests actually sent to it in its own day (`QuotaDay`), counted in the shared store so
/// that every process using that store shares one ledger. A try that would take the day's
/// count over the limit is refused before it is sent. When the provider says its quota is
/// spent anyway (YouTube's 403 `quotaExceeded`), the day is marked used up until it resets.
///
/// One per `Gateway`; thread-safe. A store that fails is worked around: the ledger then decides
/// on its own last known count, so an outage neither fails a query nor lifts the limit.
public final class QuotaLedger: Sendable {
    /// Units per day by provider; providers absent here (or at 0) are not limited.
    public let limits: [UpstreamService: Int]
    private let store: any SharedStore
    private let clock: WallClock
    private let local = Mutex<[UpstreamService: (day: QuotaDay, used: Int)]>([:])

    /// What a reservation decided.
    enum Reservation: Sendable, Equatable {
        /// The provider has no limit: nothing was counted.
        case unlimited
        /// The units were counted in `day`.
        case granted(day: QuotaDay)
        /// The units would take the day over its limit: nothing was counted, nothing may be sent.
        case refused(used: Int, limit: Int, day: QuotaDay)
    }

    public init(limits: [UpstreamService: Int], store: any SharedStore, clock: WallClock = .system) {
        self.limits = limits.filter { $0.value > 0 }
        self.store = store
        self.clock = clock
    }

    /// The counter key of `service` on `day`, e.g. `quota:youtube:2026-11-29`.
    static func counterKey(_ service: UpstreamService, _ day: QuotaDay) -> String {
        "quota:\(service.rawValue):\(day.label)"
    }

    /// Counts `units` of `service`'s quota for a try about to be sent, unless they do not fit.
    func reserve(_ service: UpstreamService, units: Int) async -> Reservation {
        guard let limit = limits[service] else { return .unlimited }
        let day = QuotaDay.of(service, atMs: clock.nowMs())
        let expires = day.endMs + 86_400_000
        do {
            let update = try await store.addToCounter(
                Self.counterKey(service, day), units: units, limit: limit, expiresAtMs: expires)
            note(service, day: day, used: update.value)
            return update.applied ? .granted(day: day) : .refused(used: update.value, limit: limit, day: day)
        } catch {
            return local.withLock { local in
                var used = local[service].flatMap { $0.day == day ? $0.used : nil } ?? 0
                guard used + units <= limit else { return .refused(used: used, limit: limit, day: day) }
                used += units
                local[service] = (day, used)
                return .granted(day: day)
            }
        }
    }

    /// Gives back `units` counted on `day` for a try that was then not sent.
    func refund(_ service: UpstreamService, units: Int, day: QuotaDay) async {
        guard limits[service] != nil else { return }
        do {
            let update = try await store.addToCounter(
                Self.counterKey(service, day), units: -units, limit: nil, expiresAtMs: day.endMs + 86_400_000)
            note(service, day: day, used: update.value, refunded: units)
        } catch {
            local.withLock { local in
                if let entry = local[service], entry.day == day { local[service] = (day, max(0, entry.used - units)) }
            }
        }
    }

    /// The provider said its quota is spent: nothing more is sent to it until its day ends.
    func markExhausted(_ service: UpstreamService) async {
        guard let limit = limits[service] else { return }
        let day = QuotaDay.of(service, atMs: clock.nowMs())
        let used: Int
        do {
            used = try await store.raiseCounter(
                Self.counterKey(service, day), to: limit, expiresAtMs: day.endMs + 86_400_000)
        } catch {
            used = limit
        }
        note(service, day: day, used: used)
    }

    /// Today's units used and the limit of every limited provider, in `UpstreamService` order,
    /// as this process last saw them (every reservation brings back the shared count).
    public func usage() -> [QuotaUsage] {
        guard !limits.isEmpty else { return [] }
        let now = clock.nowMs()
        let seen = local.withLock { $0 }
        return UpstreamService.allCases.compactMap { service in
            guard let limit = limits[service] else { return nil }
            let used = seen[service].flatMap { now >= $0.day.startMs && now < $0.day.endMs ? $0.used : nil } ?? 0
            return QuotaUsage(service: service, used: used, limit: limit)
        }
    }

    /// Reads the shared counts of today again (other processes spend too).
    public func refresh() async {
        for service in limits.keys {
            let day = QuotaDay.of(service, atMs: clock.nowMs())
            if let used = try? await store.counter(Self.counterKey(service, day)) {
                note(service, day: day, used: used)
            }
        }
    }

    /// True when every limited service's count of today is known (`loadStoredCounts` would
    /// read nothing): the common case, checked without waiting.
    public func knowsStoredCounts() -> Bool {
        unseenServices(atMs: clock.nowMs()).isEmpty
    }

    /// The limited services without a count of the day of `now` yet.
    private func unseenServices(atMs now: Int64) -> [UpstreamService] {
        local.withLock { local in
            limits.keys.filter { service in
                guard let seen = local[service] else { return true }
                return now < seen.day.startMs || now >= seen.day.endMs
            }
        }
    }

    /// Reads today's shared count of every limited provider this process has not seen a count
    /// of today, so that a new process (a `query`, a restarted `serve`) reports the units spent
    /// before it started instead of 0. One read per provider per day once it succeeds; a store
    /// that fails leaves the count unknown (read again next time).
    public func loadStoredCounts() async {
        let now = clock.nowMs()
        for service in unseenServices(atMs: now).sorted(by: { $0.rawValue < $1.rawValue }) {
            let day = QuotaDay.of(service, atMs: now)
            if let used = try? await store.counter(Self.counterKey(service, day)) {
                note(service, day: day, used: used)
            }
        }
    }

    /// Keeps the highest count of the day seen so far. Replies of concurrent reservations come
    /// back in any order, so the last reply is not the latest count: taking it as it comes once
    /// reported 1,400 units for a day that had spent 15,000. A refund's reply lowers the count,
    /// but never below what is known minus the units given back, since other reservations may
    /// have been counted after it.
    private func note(_ service: UpstreamService, day: QuotaDay, used: Int, refunded: Int = 0) {
        local.withLock { local in
            guard let seen = local[service], seen.day.startMs >= day.startMs else {
                local[service] = (day, used)
                return
            }
            // A later day's count wins over an earlier day's that arrives late.
            guard seen.day.startMs == day.startMs else { return }
            local[service] = (day, refunded > 0 ? max(used, seen.used - refunded) : max(used, seen.used))
        }
    }
}
