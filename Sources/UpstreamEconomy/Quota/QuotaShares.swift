import HTTPTypes
import SharedState
import Synchronization

/// How much of each provider's daily quota one client may spend (`--clients` shares,
/// `--client-share`, `--anonymous-share`, `--anonymous-pool`), so that no client can spend the
/// day everyone shares. Fractions of the provider's `--daily-quota`; a provider without a
/// daily quota has no shares either.
///
/// A keyed client spends at most its own share (the clients file's, else `keyedShare`). An
/// anonymous client spends at most `anonymousShare` per address, and all anonymous clients
/// together at most `anonymousPool`: addresses are cheap, so the pool is what keeps the keyed
/// clients' part of the day. A request with no client (the CLI's `query`) spends from the day
/// alone.
public struct QuotaShares: Sendable, Equatable {
    /// Fractions by keyed client name, by provider.
    public var keyed: [String: [UpstreamService: Double]]
    public var keyedShare: Double
    public var anonymousShare: Double
    public var anonymousPool: Double

    /// Half the day for any keyed client without a share of its own, a fifth of it for each
    /// anonymous address, and half of it for every anonymous client together: one client can
    /// take at most half of a day, an anonymous one never more than a fifth (a query of 150
    /// calls at 100 units against a day of 10,000 gets 20 of them answered, the rest
    /// `CLIENT_QUOTA_EXCEEDED`).
    public static let defaultKeyedShare = 0.5
    public static let defaultAnonymousShare = 0.2
    public static let defaultAnonymousPool = 0.5

    public init(
        keyed: [String: [UpstreamService: Double]] = [:], keyedShare: Double = QuotaShares.defaultKeyedShare,
        anonymousShare: Double = QuotaShares.defaultAnonymousShare,
        anonymousPool: Double = QuotaShares.defaultAnonymousPool
    ) {
        self.keyed = keyed
        self.keyedShare = keyedShare
        self.anonymousShare = anonymousShare
        self.anonymousPool = anonymousPool
    }

    /// One counter a reservation of `client` must fit in, besides the provider's day.
    package struct Tier: Sendable, Equatable {
        /// Appended to the day's counter key: `client:key:web`, `client:addr:192.0.2.7`, `pool:anonymous`.
        package var suffix: String
        package var limit: Int
        /// The name in errors: the client's label, or `anonymous clients` for the pool.
        package var owner: String
    }

    /// The counters `client` spends `service`'s day through, out of `dailyLimit` units.
    package func tiers(for client: RequestClient?, service: UpstreamService, dailyLimit: Int) -> [Tier] {
        guard let client else { return [] }
        func units(_ fraction: Double) -> Int { Int((Double(dailyLimit) * fraction).rounded(.down)) }
        switch client.kind {
        case .keyed:
            let share = keyed[client.name]?[service] ?? keyedShare
            return [Tier(suffix: "client:" + client.counterKey, limit: units(share), owner: client.label)]
        case .anonymous:
            return [
                Tier(suffix: "client:" + client.counterKey, limit: units(anonymousShare), owner: client.label),
                Tier(suffix: "pool:anonymous", limit: units(anonymousPool), owner: "anonymous clients"),
            ]
        }
    }
}

/// The counters of the shares (`QuotaShares.Tier`), in the ledger's store: each added to only
/// while it stays within its limit. A store that fails is worked around as the ledger's own
/// counts are: this process counts on its own last known value, and adds what it granted
/// meanwhile to the shared count once the store answers again.
package final class ShareCounters: Sendable {
    private let store: any SharedStore
    /// The last known value of each counter, by key.
    private let seen = Mutex<[String: Int]>([:])
    /// Units granted (or given back) while the store failed, by key, with the key's expiry.
    private let unsynced = Mutex<[String: (units: Int, expiresAtMs: Int64)]>([:])

    package init(store: any SharedStore) {
        self.store = store
    }

    /// Adds `units` to `key` unless that takes it over `limit`.
    /// - Returns: nil when added, else the counter's value (nothing added).
    package func add(_ key: String, units: Int, limit: Int, expiresAtMs: Int64) async -> Int? {
        do {
            try await sync(key)
            let update = try await store.addToCounter(key, units: units, limit: limit, expiresAtMs: expiresAtMs)
            seen.withLock { $0[key] = update.value }
            return update.applied ? nil : update.value
        } catch {
            let refused = seen.withLock { seen -> Int? in
                let used = seen[key] ?? 0
                guard used + units <= limit else { return used }
                seen[key] = used + units
                return nil
            }
            if refused == nil { addUnsynced(key, units: units, expiresAtMs: expiresAtMs) }
            return refused
        }
    }

    /// Gives back `units` added to `key` for a call that was then not sent.
    package func refund(_ key: String, units: Int, expiresAtMs: Int64) async {
        do {
            try await sync(key)
            let update = try await store.addToCounter(key, units: -units, limit: nil, expiresAtMs: expiresAtMs)
            seen.withLock { $0[key] = update.value }
        } catch {
            seen.withLock { $0[key] = max(0, ($0[key] ?? 0) - units) }
            addUnsynced(key, units: -units, expiresAtMs: expiresAtMs)
        }
    }

    /// The last known value of `key` (0 when never seen).
    package func value(_ key: String) -> Int { seen.withLock { $0[key] ?? 0 } }

    private func addUnsynced(_ key: String, units: Int, expiresAtMs: Int64) {
        unsynced.withLock { unsynced in
            unsynced[key] = ((unsynced[key]?.units ?? 0) + units, expiresAtMs)
        }
    }

    /// Adds what was granted on `key` while the store failed (taken first, so that concurrent
    /// callers add it once; put back when the store fails again).
    private func sync(_ key: String) async throws(SharedStoreError) {
        guard let pending = unsynced.withLock({ $0.removeValue(forKey: key) }), pending.units != 0 else { return }
        do {
            _ = try await store.addToCounter(key, units: pending.units, limit: nil, expiresAtMs: pending.expiresAtMs)
        } catch {
            addUnsynced(key, units: pending.units, expiresAtMs: pending.expiresAtMs)
            throw error
        }
    }
}
