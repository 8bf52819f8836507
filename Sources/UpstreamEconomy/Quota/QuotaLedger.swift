import HTTPTypes
import SharedState
import Synchronization

/// The daily quota of each upstream (`--daily-quota NAME=UNITS,…`): the units of the
/// requests actually sent to it in its own day (`QuotaDay`), counted in the shared store so
/// that every process using that store shares one ledger. A try that would take the day's
/// count over the limit is refused before it is sent. When the upstream says its quota is
/// spent anyway (`UpstreamTraits.saysDailyQuotaIsSpent`), the day is marked used up until it
/// resets.
///
/// One per `Gateway`; thread-safe. A store that fails is worked around: the ledger then decides
/// on its own last known count, so an outage neither fails a query nor lifts the limit, and
/// keeps the units it grants meanwhile; the first store call that succeeds again adds them to
/// the shared count before anything else, so that what every process spent in the outage
/// counts against the rest of the day.
public final class QuotaLedger: Sendable {
    /// Units per day by provider; providers absent here (or at 0) are not limited.
    public let limits: [UpstreamService: Int]
    /// Each upstream's time zone, whose midnight ends its day.
    package let traits: UpstreamTraitsTable
    /// How much of each day one client may spend.
    public let shares: QuotaShares
    private let shareCounters: ShareCounters
    private let store: any SharedStore
    private let clock: WallClock
    /// The day's count of each provider as last seen, and when it was read from the store.
    private let local = Mutex<[UpstreamService: (day: QuotaDay, used: Int, readAtMs: Int64)]>([:])
    /// Units granted (or, negative, given back) while the store failed, per provider and day:
    /// not in the shared count yet.
    private let unsynced = Mutex<[UpstreamService: (day: QuotaDay, units: Int)]>([:])
    /// How old a count seen in the store may be before a request reads it again
    /// (`knowsStoredCounts`): other processes on the store spend too, and a process that only
    /// waits on their sends would report its start-up count all day.
    package static let staleAfterMs: Int64 = 1_000

    /// What a reservation decided.
    package enum Reservation: Sendable, Equatable {
        /// The provider has no limit: nothing was counted.
        case unlimited
        /// The units were counted in `day`.
        case granted(day: QuotaDay)
        /// The units would take the day over its limit: nothing was counted, nothing may be sent.
        case refused(used: Int, limit: Int, day: QuotaDay)
        /// The units would take `owner` (a client, or the anonymous clients together) over its
        /// share of the day (`limit` units, `used` spent): nothing was counted, nothing may be sent.
        case shareRefused(owner: String, used: Int, limit: Int, day: QuotaDay)
    }

    public init(
        limits: [UpstreamService: Int], shares: QuotaShares = QuotaShares(), store: any SharedStore,
        clock: WallClock = .system, traits: UpstreamTraitsTable = UpstreamTraitsTable()
    ) {
        self.traits = traits
        self.limits = limits.filter { $0.value > 0 }
        self.shares = shares
        self.shareCounters = ShareCounters(store: store)
        self.store = store
        self.clock = clock
    }

    /// Counts `units` of `service`'s quota for a try `client` is about to send: in each of the
    /// client's shares (`QuotaShares.tiers`), then in the day, unless any of them has no room
    /// (what was counted is then given back).
    package func reserve(_ service: UpstreamService, units: Int, client: RequestClient?) async -> Reservation {
        guard let limit = limits[service] else { return .unlimited }
        let tiers = shares.tiers(for: client, service: service, dailyLimit: limit)
        guard !tiers.isEmpty else { return await reserve(service, units: units) }
        let day = day(service, atMs: clock.nowMs())
        let expires = day.endMs + 86_400_000
        var charged: [String] = []
        func giveBack() async {
            for key in charged { await shareCounters.refund(key, units: units, expiresAtMs: expires) }
        }
        for tier in tiers {
            let key = Self.counterKey(service, day) + ":" + tier.suffix
            if let used = await shareCounters.add(key, units: units, limit: tier.limit, expiresAtMs: expires) {
                await giveBack()
                // When the whole day is spent too, that is the news: no client can be served.
                // The day's count as the store has it: another instance may have spent it.
                await readStoredCount(service, day: day)
                let dayUsed = local.withLock { $0[service].flatMap { $0.day == day ? $0.used : nil } }
                if let dayUsed, dayUsed + units > limit { return .refused(used: dayUsed, limit: limit, day: day) }
                return .shareRefused(owner: tier.owner, used: used, limit: tier.limit, day: day)
            }
            charged.append(key)
        }
        let reservation = await reserve(service, units: units)
        if case .refused = reservation { await giveBack() }
        return reservation
    }

    /// The units `client` has spent of `service`'s day as this process last saw them, and its
    /// share; nil when it has none (no client, or no daily quota).
    public func shareUsage(_ service: UpstreamService, client: RequestClient?) -> (used: Int, limit: Int)? {
        guard let limit = limits[service],
            let tier = shares.tiers(for: client, service: service, dailyLimit: limit).first
        else { return nil }
        let day = day(service, atMs: clock.nowMs())
        return (shareCounters.value(Self.counterKey(service, day) + ":" + tier.suffix), tier.limit)
    }

    /// The quota day of `service` at Unix time `ms`, in its time zone.
    package func day(_ service: UpstreamService, atMs ms: Int64) -> QuotaDay {
        QuotaDay.of(timeZone: traits[service].timeZone, atMs: ms)
    }

    /// The counter key of `service` on `day`, e.g. `quota:releases:2026-11-29`.
    package static func counterKey(_ service: UpstreamService, _ day: QuotaDay) -> String {
        "quota:\(service.rawValue):\(day.label)"
    }

    /// Counts `units` of `service`'s quota for a try about to be sent, unless they do not fit.
    package func reserve(_ service: UpstreamService, units: Int) async -> Reservation {
        guard let limit = limits[service] else { return .unlimited }
        let day = day(service, atMs: clock.nowMs())
        let expires = day.endMs + 86_400_000
        do {
            try await syncUnsynced(service)
            let update = try await store.addToCounter(
                Self.counterKey(service, day), units: units, limit: limit, expiresAtMs: expires)
            note(service, day: day, used: update.value)
            return update.applied ? .granted(day: day) : .refused(used: update.value, limit: limit, day: day)
        } catch {
            let granted = local.withLock { local -> Reservation in
                let seen = local[service].flatMap { $0.day == day ? $0 : nil }
                var used = seen?.used ?? 0
                guard used + units <= limit else { return .refused(used: used, limit: limit, day: day) }
                used += units
                local[service] = (day, used, seen?.readAtMs ?? 0)
                return .granted(day: day)
            }
            if case .granted = granted { addUnsynced(service, day: day, units: units) }
            return granted
        }
    }

    private func addUnsynced(_ service: UpstreamService, day: QuotaDay, units: Int) {
        unsynced.withLock { unsynced in
            // Units of an earlier day that never reached the store no longer limit anything.
            let kept = unsynced[service].flatMap { $0.day == day ? $0.units : nil } ?? 0
            unsynced[service] = (day, kept + units)
        }
    }

    /// Adds the units granted while the store failed to the shared count of their day (taken
    /// first, so that concurrent callers add them once; put back when the store fails again).
    private func syncUnsynced(_ service: UpstreamService) async throws(SharedStoreError) {
        guard let pending = unsynced.withLock({ $0.removeValue(forKey: service) }), pending.units != 0 else { return }
        do {
            let update = try await store.addToCounter(
                Self.counterKey(service, pending.day), units: pending.units, limit: nil,
                expiresAtMs: pending.day.endMs + 86_400_000)
            note(service, day: pending.day, used: update.value)
        } catch {
            addUnsynced(service, day: pending.day, units: pending.units)
            throw error
        }
    }

    /// Gives back `units` counted on `day` for a try that was then not sent.
    package func refund(_ service: UpstreamService, units: Int, day: QuotaDay) async {
        guard limits[service] != nil else { return }
        do {
            try await syncUnsynced(service)
            let update = try await store.addToCounter(
                Self.counterKey(service, day), units: -units, limit: nil, expiresAtMs: day.endMs + 86_400_000)
            note(service, day: day, used: update.value, refunded: units)
        } catch {
            local.withLock { local in
                if let entry = local[service], entry.day == day {
                    local[service] = (day, max(0, entry.used - units), entry.readAtMs)
                }
            }
            addUnsynced(service, day: day, units: -units)
        }
    }

    /// The provider said its quota is spent: nothing more is sent to it until its day ends.
    package func markExhausted(_ service: UpstreamService) async {
        guard let limit = limits[service] else { return }
        let day = day(service, atMs: clock.nowMs())
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
        return limits.keys.sorted().compactMap { service in
            guard let limit = limits[service] else { return nil }
            let used = seen[service].flatMap { now >= $0.day.startMs && now < $0.day.endMs ? $0.used : nil } ?? 0
            return QuotaUsage(service: service, used: used, limit: limit)
        }
    }

    /// Reads the shared counts of today again (other processes spend too), after adding what
    /// this process granted while the store failed.
    public func refresh() async {
        for service in limits.keys {
            let day = day(service, atMs: clock.nowMs())
            await readStoredCount(service, day: day)
        }
    }

    /// True when every limited service's count of today was read from the store in the last
    /// `staleAfterMs` (`loadStoredCounts` would read nothing): the common case, checked
    /// without waiting.
    public func knowsStoredCounts() -> Bool {
        unseenServices(atMs: clock.nowMs()).isEmpty
    }

    /// The limited services without a count of the day of `now` read in the last `staleAfterMs`,
    /// or with units granted while the store failed still to add.
    private func unseenServices(atMs now: Int64) -> [UpstreamService] {
        let pending = unsynced.withLock { Set($0.keys) }
        return local.withLock { local in
            limits.keys.filter { service in
                guard !pending.contains(service), let seen = local[service] else { return true }
                return now < seen.day.startMs || now >= seen.day.endMs || now - seen.readAtMs >= Self.staleAfterMs
            }
        }
    }

    /// Reads today's shared count of every limited provider whose count this process has not
    /// read today, or not in the last `staleAfterMs`, so that a new process (a `query`, a
    /// restarted `serve`) reports the units spent before it started instead of 0, and one that
    /// only waits on other processes' sends reports what they spend; what it granted while the
    /// store failed is added first. A store that fails leaves the count as it was (read again
    /// next time).
    public func loadStoredCounts() async {
        let now = clock.nowMs()
        for service in unseenServices(atMs: now).sorted(by: { $0.rawValue < $1.rawValue }) {
            let day = day(service, atMs: now)
            await readStoredCount(service, day: day)
        }
    }

    /// Adds what was granted while the store failed, then reads `day`'s shared count; a store
    /// that fails leaves the count as it was.
    private func readStoredCount(_ service: UpstreamService, day: QuotaDay) async {
        guard (try? await syncUnsynced(service)) != nil,
            let used = try? await store.counter(Self.counterKey(service, day))
        else { return }
        note(service, day: day, used: used)
    }

    /// Keeps the highest count of the day seen so far. Replies of concurrent reservations come
    /// back in any order, so the last reply is not the latest count: taking it as it comes once
    /// reported 1,400 units for a day that had spent 15,000. A refund's reply lowers the count,
    /// but never below what is known minus the units given back, since other reservations may
    /// have been counted after it.
    private func note(_ service: UpstreamService, day: QuotaDay, used: Int, refunded: Int = 0) {
        let now = clock.nowMs()
        local.withLock { local in
            guard let seen = local[service], seen.day.startMs >= day.startMs else {
                local[service] = (day, used, now)
                return
            }
            // A later day's count wins over an earlier day's that arrives late.
            guard seen.day.startMs == day.startMs else { return }
            local[service] = (day, refunded > 0 ? max(used, seen.used - refunded) : max(used, seen.used), now)
        }
    }
}
