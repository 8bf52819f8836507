import Foundation
import SharedState

/// `SharedStore` in a Redis server (`--store redis://HOST:PORT[/DB]`): one store for a fleet of
/// gateways. Every key is prefixed `musicgraph:v1:` (the callers' keys carry no secrets).
///
/// - Entries: `SET key <expiry><value> PXAT expiry`; Redis drops them when they expire, and its
///   `maxmemory` policy bounds them in bytes (`volatile-lru` in `make fleet`: only keys with a
///   TTL, the cache's, are ever evicted). Every entry, claim and document has a TTL. The value carries
///   its expiry (8 bytes, big-endian Unix ms) so a reader gets it back; a value that does not
///   decode is a miss.
/// - Claims: `SET key holder PX ttl` only when free or already the holder's (one Lua script);
///   released by a script that deletes the key only when it is still the holder's. Waiters
///   poll the key (2 ms at first, backing off to 20 ms) until it is gone or the TTL has passed.
/// - Counters: one Lua script reads, checks the limit and `INCRBY`s atomically: every instance
///   spends from one count. A counter has no TTL, so that no eviction policy that spares
///   TTL-less keys (`volatile-*`) can drop a quota count and lift the limit; instead its expiry
///   is its score in the sorted set `musicgraph:v1:{counters}expiries`, and each counter update
///   deletes the counters whose expiry has passed. Counters and that set share the hash tag
///   `{counters}`, so they sit in one slot of a Redis Cluster and the scripts touching several
///   of them run there too.
/// - Request rates (`rateLimit`): one GCRA script on one key with a TTL (a rate's state that is
///   evicted only forgives a few requests).
///
/// Every script and multi-key command keeps its keys in one hash slot.
///
/// Every call is bounded (connect and command timeouts; `RedisConnection`) and fails with
/// `SharedStoreError` when Redis is down or slow; the connection comes back by itself.
public final class RedisStore: SharedStore, Sendable {
    public var kind: String { "redis" }
    public static let keyPrefix = "musicgraph:v1:"

    public let host: String
    public let port: Int
    public let database: Int
    private let connection: RedisConnection
    private let clock: WallClock
    /// How long a persisted document stays after its last use.
    private static let documentTTLSeconds = 30 * 86_400

    /// A store on the Redis at `host:port`, database `database`. Connects on first use (so an
    /// unreachable Redis at start-up is a failing store, not a crash).
    ///
    /// - Parameters:
    ///   - connectTimeoutMs: the longest a connect may take.
    ///   - commandTimeoutMs: the longest one read or write of a command may block.
    ///   - reconnectDelayMs: after a failure, calls fail at once for this long before the next
    ///     connect attempt (so an outage costs no timeouts per call).
    ///   - onStateChange: hears `(true, nil)` once connected, `(false, reason)` once lost;
    ///     called on the connection's thread.
    public init(
        host: String, port: Int, database: Int = 0, connectTimeoutMs: Int = 500, commandTimeoutMs: Int = 500,
        reconnectDelayMs: Int = 250, clock: WallClock = .system,
        onStateChange: @escaping @Sendable (_ connected: Bool, _ reason: String?) -> Void = { _, _ in }
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.clock = clock
        self.connection = RedisConnection(
            host: host, port: port, database: database, connectTimeoutMs: connectTimeoutMs,
            commandTimeoutMs: commandTimeoutMs, reconnectDelayMs: reconnectDelayMs, onStateChange: onStateChange)
    }

    deinit {
        connection.stop()
    }

    /// The prefixed key, as bytes.
    static func redisKey(_ key: String) -> [UInt8] { Array((keyPrefix + key).utf8) }

    private func command(_ words: [String], _ blobs: [[UInt8]] = []) async throws(SharedStoreError) -> RedisReply {
        let reply = try await connection.send(words.map { Array($0.utf8) } + blobs)
        if case .error(let message) = reply { throw SharedStoreError("redis refused a command: \(message)") }
        return reply
    }

    private func script(_ source: String, key: String, _ arguments: [String]) async throws(SharedStoreError)
        -> RedisReply
    {
        try await command(["EVAL", source, "1"], [Self.redisKey(key)] + arguments.map { Array($0.utf8) })
    }

    /// A counter script: KEYS[1] the counter, KEYS[2] the sorted set of counter expiries.
    private func counterScript(_ source: String, key: String, _ arguments: [String]) async throws(SharedStoreError)
        -> RedisReply
    {
        try await command(
            ["EVAL", Self.expireCounters + source, "2"],
            [Self.counterKey(key), Self.redisKey(Self.counterExpiries)] + arguments.map { Array($0.utf8) })
    }

    /// The hash tag every counter key and the set of their expiries share (one cluster slot).
    static let counterTag = "{counters}"

    /// A counter's prefixed key: `musicgraph:v1:{counters}` + `key`.
    static func counterKey(_ key: String) -> [UInt8] { redisKey(counterTag + key) }

    /// Where counters' expiries are kept (their scores, Unix ms).
    static let counterExpiries = counterTag + "expiries"

    /// The head of both counter scripts: `expire()` notes KEYS[1]'s expiry (ARGV[3]) and deletes
    /// the counters whose expiry has passed (at most 100 a call: there are a few per provider per day).
    private static let expireCounters = """
        local function expire()
          redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
          local now = redis.call('TIME')
          local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
          for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', nowMs, 'LIMIT', 0, 100)) do
            redis.call('DEL', old)
            redis.call('ZREM', KEYS[2], old)
          end
        end

        """

    // MARK: Entries

    public func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? {
        guard case .string(let bytes) = try await command(["GET"], [Self.redisKey(key)]), bytes.count >= 8 else {
            return nil
        }
        let expiresAtMs = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard expiresAtMs > clock.nowMs() else { return nil }
        return StoredEntry(value: Array(bytes.dropFirst(8)), expiresAtMs: expiresAtMs)
    }

    public func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        guard entry.expiresAtMs > clock.nowMs() else { return }
        var value: [UInt8] = []
        value.reserveCapacity(8 + entry.value.count)
        for shift in stride(from: 56, through: 0, by: -8) {
            value.append(UInt8((entry.expiresAtMs >> Int64(shift)) & 0xFF))
        }
        value.append(contentsOf: entry.value)
        _ = try await command(
            ["SET"], [Self.redisKey(key), value, Array("PXAT".utf8), Array(String(entry.expiresAtMs).utf8)])
    }

    public func removeEntry(_ key: String) async throws(SharedStoreError) {
        _ = try await command(["DEL"], [Self.redisKey(key)])
    }

    // MARK: Claims

    private static let claimScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder == false or holder == ARGV[1] then
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
          return 1
        end
        return 0
        """

    private static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    public func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        try await script(Self.claimScript, key: key, [holder, String(max(1, ttlMs))]).int == 1
    }

    public func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        _ = try await script(Self.releaseScript, key: key, [holder])
    }

    public func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(max(0, timeoutMs)))
        var pauseMs = 2
        while true {
            guard try await command(["EXISTS"], [Self.redisKey(key)]).int == 1 else { return true }
            if ContinuousClock.now >= deadline { return false }
            do {
                try await Task.sleep(for: .milliseconds(pauseMs))
            } catch {
                throw SharedStoreError("cancelled while waiting for a claim")
            }
            pauseMs = min(20, pauseMs * 3 / 2 + 1)
        }
    }

    // MARK: Counters

    private static let addScript = """
        local current = tonumber(redis.call('GET', KEYS[1]) or '0')
        local units = tonumber(ARGV[1])
        if ARGV[2] ~= '' and units > 0 and current + units > tonumber(ARGV[2]) then return {0, current} end
        current = redis.call('INCRBY', KEYS[1], units)
        expire()
        return {1, current}
        """

    private static let raiseScript = """
        local current = tonumber(redis.call('GET', KEYS[1]) or '0')
        local wanted = tonumber(ARGV[1])
        if wanted > current then
          current = wanted
          redis.call('SET', KEYS[1], current)
        end
        expire()
        return current
        """

    public func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64)
        async throws(SharedStoreError) -> CounterUpdate
    {
        let reply = try await counterScript(
            Self.addScript, key: key, [String(units), limit.map(String.init) ?? "", String(expiresAtMs)])
        guard case .array(let parts) = reply, parts.count == 2, let applied = parts[0].int, let value = parts[1].int
        else { throw SharedStoreError("redis answered a counter update with \(reply)") }
        return CounterUpdate(applied: applied == 1, value: value)
    }

    public func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        // ARGV[3] is the expiry in both scripts: the raise's ARGV[2] is unused.
        let reply = try await counterScript(Self.raiseScript, key: key, [String(value), "", String(expiresAtMs)])
        guard let raised = reply.int else { throw SharedStoreError("redis answered a counter raise with \(reply)") }
        return raised
    }

    public func counter(_ key: String) async throws(SharedStoreError) -> Int {
        switch try await command(["GET"], [Self.counterKey(key)]) {
        case .null: return 0
        case let reply:
            guard let value = reply.int else { throw SharedStoreError("redis holds no number under a counter key") }
            return value
        }
    }

    // MARK: Request rates

    /// GCRA on Redis's clock: KEYS[1] holds the theoretical arrival time (µs); ARGV[1] the
    /// emission interval, ARGV[2] the tolerance (µs). Returns {admitted, arrival - now} with the
    /// arrival time after this request (before it, when refused).
    private static let gcraScript = """
        local now = redis.call('TIME')
        local nowUs = tonumber(now[1]) * 1000000 + tonumber(now[2])
        local interval = tonumber(ARGV[1])
        local tolerance = tonumber(ARGV[2])
        local arrival = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), nowUs)
        if arrival - nowUs > tolerance then return {0, arrival - nowUs} end
        arrival = arrival + interval
        redis.call('SET', KEYS[1], arrival, 'PX', math.ceil((arrival - nowUs) / 1000) + 1)
        return {1, arrival - nowUs}
        """

    /// Charges one request to the rate whose state is under `key` (the generic cell rate
    /// algorithm, atomically for the fleet): admitted when it comes no more than `toleranceUs`
    /// ahead of its theoretical arrival time, which then moves `emissionIntervalUs` on.
    /// - Returns: whether it was admitted, and the microseconds from now to the theoretical
    ///   arrival time (after this request when admitted).
    public func rateLimit(_ key: String, emissionIntervalUs: Int64, toleranceUs: Int64)
        async throws(SharedStoreError) -> (admitted: Bool, arrivalInUs: Int64)
    {
        let reply = try await script(
            Self.gcraScript, key: "rate:" + key, [String(emissionIntervalUs), String(toleranceUs)])
        guard case .array(let parts) = reply, parts.count == 2, let admitted = parts[0].int, let ahead = parts[1].int
        else { throw SharedStoreError("redis answered a rate check with \(reply)") }
        return (admitted == 1, Int64(ahead))
    }

    // MARK: Persisted documents

    public func document(sha256: String) async throws(SharedStoreError) -> String? {
        let reply = try await command(
            ["GETEX"], [Self.redisKey("doc:" + sha256), Array("EX".utf8), Array(String(Self.documentTTLSeconds).utf8)])
        guard case .string(let bytes) = reply else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    public func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        _ = try await command(
            ["SET"],
            [
                Self.redisKey("doc:" + sha256), Array(text.utf8), Array("EX".utf8),
                Array(String(Self.documentTTLSeconds).utf8),
            ])
    }
}
