import GraphQL
import SharedState
import UpstreamEconomy

extension Gateway {
    /// How the shared store answers; nil when responses stay in this process (no store, a
    /// `MemoryStore`, or caching off).
    public var storeHealth: StoreHealth? { exchange.shared?.health }

    /// The shared store's series for `/metrics`: empty without a store.
    func storeMetricsText() -> String {
        guard let health = storeHealth else { return "" }
        let state = health.snapshot
        var out = "# HELP musicgraph_store_up Whether the shared store's latest call succeeded (0: degraded, "
        out += "answering from upstream).\n"
        out += "# TYPE musicgraph_store_up gauge\n"
        out += "musicgraph_store_up{kind=\"\(health.kind)\"} \(state.up ? 1 : 0)\n"
        out += "# HELP musicgraph_store_errors_total Shared store calls that failed (each worked around).\n"
        out += "# TYPE musicgraph_store_errors_total counter\n"
        out += "musicgraph_store_errors_total{kind=\"\(health.kind)\"} \(state.errors)\n"
        return out
    }

    /// What `/readyz` answers: the gateway answers queries either way, so it is always ready;
    /// `degraded` says that the shared store is failing (more upstream requests, no sharing)
    /// until a call succeeds again. JSON: `{"status":"ready"|"degraded","store":{"kind":…,
    /// "up":…,"errors":N[,"lastError":…]}}` (no `store` member without one).
    public func readinessJSON() -> String {
        guard let health = storeHealth else { return #"{"status":"ready"}"# }
        let state = health.snapshot
        var store: [(String, JSONValue)] = [
            ("kind", .string(health.kind)), ("up", .bool(state.up)), ("errors", .int(state.errors)),
        ]
        if let lastError = state.lastError { store.append(("lastError", .string(lastError))) }
        let body = JSONValue.object(
            JSONObject([("status", .string(state.up ? "ready" : "degraded")), ("store", .object(JSONObject(store)))]))
        return String(decoding: JSONWriter.serialize(body), as: UTF8.self)
    }

    /// One cheap store call (a counter read) whose outcome updates `storeHealth`: lets a server
    /// notice that its store is back (or gone) while no query asks it anything. Nothing without a
    /// store.
    public func probeStore() async {
        guard let shared = exchange.shared else { return }
        let store = shared.store
        _ = await shared.health.attempt { () async throws(SharedStoreError) in
            try await store.counter("probe")
        }
    }
}
