import HTTPServer
import Synchronization

/// Counters behind `/metrics`, shared by every request of one handler, rendered in the
/// Prometheus text exposition format (version 0.0.4).
///
/// Series:
/// - `musicgraph_http_requests_total{path,status}`: answered requests. `path` is the GraphQL
///   path, `/healthz`, `/metrics` or `other`, so strangers cannot create series.
/// - `musicgraph_http_request_duration_seconds{status}`: a latency histogram.
/// - `musicgraph_http_requests_in_flight`: requests being handled now.
/// - `musicgraph_shutdown_requests_total{outcome}`: once a shutdown began, the GraphQL requests
///   it met: `finished` in its grace, `unfinished` (503 when the grace ran out), `refused`.
/// - `musicgraph_upstream_requests_total{service,outcome}`: from each request's `RequestReport`.
/// - `musicgraph_cache_hits_total`: upstream reads served from the cache.
/// - `musicgraph_http_connections_open` and `musicgraph_http_connections_closed_total{reason}`
///   (`header_timeout`, `body_timeout`, `idle_timeout`, `address_limit`): the HTTP server's
///   connection limits and deadlines, once `GraphQLHTTPServer` attached its server.
/// - `musicgraph_upstream_deduplicated_total`: upstream reads that shared a send in flight.
/// - `musicgraph_client_requests_total{client,status}`: GraphQL requests by client (a clients
///   file name or `anonymous`: a bounded set) and status; 429s are the rate limit's refusals.
/// - `musicgraph_client_rate_store_failures_total`: rate checks the fleet's store did not answer
///   (decided by this process's own counts instead).
/// - `musicgraph_http_incremental_parts_total`: parts of `multipart/mixed` incremental answers
///   handed to the connection (the answers themselves count in the request series when they end).
/// - whatever the application adds (`GraphQLHTTPHandler.Configuration.applicationMetrics`).
public final class GraphQLHTTPMetrics: Sendable {
    /// Histogram bucket upper bounds in seconds: 1 ms to 10 s, covering cached answers (well
    /// under a millisecond) and slow upstream fan-outs alike.
    public static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        /// Non-cumulative counts per bucket; the last slot is `+Inf`.
        var buckets = [Int](repeating: 0, count: GraphQLHTTPMetrics.bucketBounds.count + 1)
        var sumSeconds = 0.0
        var count = 0

        mutating func record(bucket: Int, seconds: Double) {
            buckets[bucket] += 1
            sumSeconds += seconds
            count += 1
        }
    }

    private struct RequestKey: Hashable, Comparable {
        var path: String
        var status: Int

        static func < (lhs: RequestKey, rhs: RequestKey) -> Bool { (lhs.path, lhs.status) < (rhs.path, rhs.status) }
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [Int: Histogram] = [:]
        var upstream: [RequestReport.UpstreamKey: Int] = [:]
        var clients: [RequestKey: Int] = [:]
        var cacheHits = 0
        var deduplicated = 0
    }

    private let state = Mutex(State())
    private let inFlight = Atomic<Int>(0)
    private let incrementalParts = Atomic<Int>(0)
    private let sharedRateFailures = Atomic<Int>(0)
    /// What a shutdown did to the GraphQL requests it met; rendered once one has begun.
    private let shutdown = Mutex<ShutdownCounts?>(nil)
    private let connections = Mutex<(@Sendable () -> HTTPServer.ConnectionStatistics)?>(nil)

    public init() {}

    func requestStarted() {
        inFlight.add(1, ordering: .relaxed)
    }

    /// Records an answered request; `pathLabel` must come from a fixed set.
    func requestFinished(
        pathLabel: String, status: Int, durationSeconds: Double, report: RequestReport, client: String? = nil
    ) {
        inFlight.subtract(1, ordering: .relaxed)
        let bucket = Self.bucketBounds.firstIndex { durationSeconds <= $0 } ?? Self.bucketBounds.count
        state.withLock { state in
            state.requests[RequestKey(path: pathLabel, status: status), default: 0] += 1
            if let client { state.clients[RequestKey(path: client, status: status), default: 0] += 1 }
            state.latency[status, default: Histogram()].record(bucket: bucket, seconds: durationSeconds)
            for (key, count) in report.upstreamRequests {
                state.upstream[key, default: 0] += count
            }
            state.cacheHits += report.cacheHits
            state.deduplicated += report.deduplicated
        }
    }

    /// A shutdown has begun: its counts are rendered from now on (all 0 until something happens).
    func shutdownBegan() {
        shutdown.withLock { if $0 == nil { $0 = ShutdownCounts() } }
    }

    /// A GraphQL request that arrived during a shutdown's drain was refused without running.
    func shutdownRefused() { shutdown.withLock { $0 = ($0 ?? ShutdownCounts()).adding(refused: 1) } }

    /// A request in flight when new ones began to be refused finished with its answer.
    func shutdownFinished() { shutdown.withLock { $0 = ($0 ?? ShutdownCounts()).adding(finished: 1) } }

    /// `count` requests still running when the grace ran out were answered 503.
    func shutdownCutShort(_ count: Int) {
        shutdown.withLock { $0 = ($0 ?? ShutdownCounts()).adding(unfinished: count) }
    }

    /// What the shutdown did so far; nil when none has begun.
    public var shutdownCounts: ShutdownCounts? { shutdown.withLock { $0 } }

    /// The fleet's rate store did not answer: this process decided on its own.
    func sharedRateLimitFailed() {
        sharedRateFailures.add(1, ordering: .relaxed)
    }

    /// One part of an incremental answer was handed to its connection.
    func incrementalPartSent() {
        incrementalParts.add(1, ordering: .relaxed)
    }

    /// Upstream requests and cache hits of an execution that finished after its request was
    /// answered (504 at the deadline): they happened, so they count.
    func recordLateUpstream(_ report: RequestReport) {
        state.withLock { state in
            for (key, count) in report.upstreamRequests {
                state.upstream[key, default: 0] += count
            }
            state.cacheHits += report.cacheHits
            state.deduplicated += report.deduplicated
        }
    }

    /// Renders `statistics()` with the other series from now on (the server serving these requests).
    public func attachConnectionStatistics(_ statistics: @escaping @Sendable () -> HTTPServer.ConnectionStatistics) {
        connections.withLock { $0 = statistics }
    }

    /// Requests being handled right now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// The exposition text (`Content-Type: text/plain; version=0.0.4`), series sorted by labels,
    /// then `application` (the application's own series, in the same format).
    public func render(application: String = "") -> String {
        let snapshot = state.withLock { $0 }
        var out = ""
        out += "# HELP musicgraph_http_requests_total HTTP requests answered, by path and status.\n"
        out += "# TYPE musicgraph_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
            out += "musicgraph_http_requests_total{path=\"\(escape(key.path))\",status=\"\(key.status)\"} \(count)\n"
        }
        out += "# HELP musicgraph_http_request_duration_seconds Time to answer HTTP requests, by status.\n"
        out += "# TYPE musicgraph_http_request_duration_seconds histogram\n"
        for (status, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in Self.bucketBounds.enumerated() {
                cumulative += histogram.buckets[index]
                out +=
                    "musicgraph_http_request_duration_seconds_bucket{status=\"\(status)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            cumulative += histogram.buckets[Self.bucketBounds.count]
            out += "musicgraph_http_request_duration_seconds_bucket{status=\"\(status)\",le=\"+Inf\"} \(cumulative)\n"
            out += "musicgraph_http_request_duration_seconds_sum{status=\"\(status)\"} \(histogram.sumSeconds)\n"
            out += "musicgraph_http_request_duration_seconds_count{status=\"\(status)\"} \(histogram.count)\n"
        }
        out += "# HELP musicgraph_client_requests_total GraphQL requests answered, by client and status.\n"
        out += "# TYPE musicgraph_client_requests_total counter\n"
        for (key, count) in snapshot.clients.sorted(by: { $0.key < $1.key }) {
            out +=
                "musicgraph_client_requests_total{client=\"\(escape(key.path))\",status=\"\(key.status)\"} \(count)\n"
        }
        let rateFailures = sharedRateFailures.load(ordering: .relaxed)
        if rateFailures > 0 {
            out += "# HELP musicgraph_client_rate_store_failures_total Rate checks the shared store did not answer.\n"
            out += "# TYPE musicgraph_client_rate_store_failures_total counter\n"
            out += "musicgraph_client_rate_store_failures_total \(rateFailures)\n"
        }
        if let counts = shutdownCounts {
            out += "# HELP musicgraph_shutdown_requests_total GraphQL requests a shutdown met, by outcome.\n"
            out += "# TYPE musicgraph_shutdown_requests_total counter\n"
            out += "musicgraph_shutdown_requests_total{outcome=\"finished\"} \(counts.finished)\n"
            out += "musicgraph_shutdown_requests_total{outcome=\"refused\"} \(counts.refused)\n"
            out += "musicgraph_shutdown_requests_total{outcome=\"unfinished\"} \(counts.unfinished)\n"
        }
        out += "# HELP musicgraph_http_requests_in_flight HTTP requests being handled.\n"
        out += "# TYPE musicgraph_http_requests_in_flight gauge\n"
        out += "musicgraph_http_requests_in_flight \(requestsInFlight)\n"
        out += "# HELP musicgraph_upstream_requests_total Upstream API requests, by service and outcome.\n"
        out += "# TYPE musicgraph_upstream_requests_total counter\n"
        for (key, count) in snapshot.upstream.sorted(by: { $0.key < $1.key }) {
            out +=
                "musicgraph_upstream_requests_total{service=\"\(escape(key.service))\",outcome=\"\(escape(key.outcome))\"} \(count)\n"
        }
        out += "# HELP musicgraph_cache_hits_total Upstream reads answered from the cache.\n"
        out += "# TYPE musicgraph_cache_hits_total counter\n"
        out += "musicgraph_cache_hits_total \(snapshot.cacheHits)\n"
        if let statistics = connections.withLock({ $0 })?() {
            out += "# HELP musicgraph_http_connections_open TCP connections open now.\n"
            out += "# TYPE musicgraph_http_connections_open gauge\n"
            out += "musicgraph_http_connections_open \(statistics.open)\n"
            out +=
                "# HELP musicgraph_http_connections_closed_total Connections closed by a deadline or limit, by reason.\n"
            out += "# TYPE musicgraph_http_connections_closed_total counter\n"
            let closed = [
                ("address_limit", statistics.refusedOverAddressLimit),
                ("body_timeout", statistics.closedAtBodyDeadline),
                ("header_timeout", statistics.closedAtHeaderDeadline),
                ("idle_timeout", statistics.closedAtIdleDeadline),
            ]
            for (reason, count) in closed {
                out += "musicgraph_http_connections_closed_total{reason=\"\(reason)\"} \(count)\n"
            }
        }
        out += "# HELP musicgraph_upstream_deduplicated_total Upstream reads that shared a request already in flight.\n"
        out += "# TYPE musicgraph_upstream_deduplicated_total counter\n"
        out += "musicgraph_upstream_deduplicated_total \(snapshot.deduplicated)\n"
        out += "# HELP musicgraph_http_incremental_parts_total Parts of multipart incremental answers sent.\n"
        out += "# TYPE musicgraph_http_incremental_parts_total counter\n"
        out += "musicgraph_http_incremental_parts_total \(incrementalParts.load(ordering: .relaxed))\n"
        out += application
        return out
    }

    /// A label value with `\`, `"` and newlines escaped, as the exposition format requires.
    private func escape(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
