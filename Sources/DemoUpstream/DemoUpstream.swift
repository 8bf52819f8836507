import Foundation
import Synchronization

/// A local stand-in for the five upstream APIs, serving the bundled Chinook catalog in
/// each API's exact wire format under its real paths, with injectable latency and faults
/// and a request log. Both the offline demo and the integration tests' upstream.
///
/// Routing is the pure-ish `handle(_:)` (it sleeps for latency faults); an HTTP server
/// binds it to a port. Control endpoints live under `/__demo/`:
/// - `POST /__demo/faults` (body: see `FaultRule`), `GET` shows them, `DELETE` or `{}` clears;
/// - `GET /__demo/requests` → `[{method, path, query, service, status, authorization?, traceparent?}]`
///   since start or the last `DELETE /__demo/requests`, secrets shown as `***`;
/// - `GET /__demo/health` → `{"ok":true}`.
public final class DemoUpstream: Sendable {
    /// Start-up options.
    public struct Options: Sendable {
        /// Added to every API request, in milliseconds.
        public var latencyMs: Int
        /// A random 0…`jitterMs` added on top of `latencyMs`.
        public var jitterMs: Int
        /// Page size of an Apple Music album's `tracks` relationship (300 on the real API).
        public var appleMusicTracksPageSize: Int
        /// How long a `hang` fault holds a request before answering 504: long enough for any
        /// client timeout under test, short enough that a forgotten fault frees its task.
        public var hangLimitMs: Int
        /// Request-log capacity; the oldest entries are dropped beyond it, so a long-running
        /// demo does not grow without bound.
        public var maxLogEntries: Int

        public init(
            latencyMs: Int = 0, jitterMs: Int = 0, appleMusicTracksPageSize: Int = 300, hangLimitMs: Int = 60_000,
            maxLogEntries: Int = 10_000
        ) {
            self.latencyMs = latencyMs
            self.jitterMs = jitterMs
            self.appleMusicTracksPageSize = appleMusicTracksPageSize
            self.hangLimitMs = hangLimitMs
            self.maxLogEntries = maxLogEntries
        }
    }

    private struct State {
        var faults: [(prefix: String, rule: FaultRule)] = []
        var counters: [String: Int] = [:]
        var log: [(seq: Int, entry: RequestLogEntry)] = []
        var nextSeq = 0

        /// Appends `entry` to the log, at most `maxEntries` kept (the oldest go), and returns its number.
        mutating func log(_ entry: RequestLogEntry, maxEntries: Int) -> Int {
            let seq = nextSeq
            nextSeq += 1
            log.append((seq, entry))
            if log.count > maxEntries { log.removeFirst(log.count - maxEntries) }
            return seq
        }

        /// The fault rule of the longest prefix `path` starts with, if any.
        func fault(for path: String) -> (prefix: String, rule: FaultRule)? {
            faults.first { path.hasPrefix($0.prefix) }
        }
    }

    public let options: Options
    let catalog: DemoCatalog
    private let itunes: ITunesRoutes
    private let appleMusic: AppleMusicRoutes
    private let rakuten: RakutenRoutes
    private let youTube: YouTubeRoutes
    private let tmdb: TMDBRoutes
    private let state = Mutex(State())
    /// Route answers by request, kept serialized (the catalog never changes).
    let answers = AnswerMemo(maxBytes: 64 << 20)
    /// Routes (and the catalog load) run here: off Swift's cooperative thread pool, because
    /// a search over ten thousand videos would otherwise stall every other task of the
    /// process (the gateway under `serve --demo`, other tests), and serial, so all
    /// DemoUpstreams of a process together keep at most one core busy. A route takes well
    /// under a millisecond in release builds, so one queue outpaces any client we test with.
    private static let workQueue = DispatchQueue(label: "DemoUpstream.routes")

    /// Serves the bundled catalog with its derived videos and movies.
    /// - Throws: when the bundled `chinook-catalog.json` is missing or invalid.
    public convenience init(options: Options = Options()) throws {
        self.init(catalog: try Self.bundledCatalog.get(), options: options)
    }

    /// Like `init(options:)`, but loads the catalog (once per process) on a Dispatch thread,
    /// so an async caller never blocks a thread of Swift's cooperative pool on it.
    public static func make(options: Options = Options()) async throws -> DemoUpstream {
        let catalog = try await withCheckedThrowingContinuation { continuation in
            workQueue.async { continuation.resume(with: bundledCatalog) }
        }
        return DemoUpstream(catalog: catalog, options: options)
    }

    /// The bundled catalog, loaded and derived once per process: it is immutable, and tests
    /// start many DemoUpstreams (loading costs ~0.1 s in release, ~0.8 s in debug builds).
    private static let bundledCatalog = Result { DemoCatalog(chinook: try ChinookCatalog.bundled()) }

    init(catalog: DemoCatalog, options: Options) {
        self.catalog = catalog
        self.options = options
        itunes = ITunesRoutes(catalog: catalog)
        appleMusic = AppleMusicRoutes(catalog: catalog, tracksPageSize: max(options.appleMusicTracksPageSize, 1))
        rakuten = RakutenRoutes(catalog: catalog)
        youTube = YouTubeRoutes(catalog: catalog)
        tmdb = TMDBRoutes(catalog: catalog)
    }

    /// Answers one request: a control endpoint, or an API route after global latency and
    /// any matching fault.
    public func handle(_ request: DemoRequest) async -> DemoResponse {
        if request.path.hasPrefix("/__demo/") { return control(request) }
        let service = DemoService(path: request.path)
        let entry = RequestLogEntry(request, service: service, status: 0)
        let (seq, rule) = state.withLock { state -> (Int, FaultRule?) in
            let seq = state.log(entry, maxEntries: options.maxLogEntries)
            guard let match = state.fault(for: request.path) else { return (seq, nil) }
            state.counters[match.prefix, default: 0] += 1
            let count = state.counters[match.prefix] ?? 1
            if let n = match.rule.everyNth, count % n != 0 { return (seq, nil) }
            return (seq, match.rule)
        }

        await Self.sleep(ms: latencyMs() + (rule?.latencyMs ?? 0))
        var response: DemoResponse
        if rule?.hang == true {
            await Self.sleep(ms: options.hangLimitMs)
            response = DemoResponse.plain(
                504, "demo-upstream: hang fault held the request for \(options.hangLimitMs) ms")
        } else if request.method != "GET" && request.method != "HEAD" {
            response = DemoResponse.plain(405, "method \(request.method) not allowed")
        } else if rule == nil, let kept = answers.answer(for: AnswerMemo.key(request)) {
            response = kept  // served as it is: no queue hop, no ranking, no JSON building
        } else {
            response = await offload { [self] in
                rule?.apply(service: service, request: request) { answer(request, service) } ?? answer(request, service)
            }
        }
        let status = response.status
        state.withLock { state in
            if let i = state.log.lastIndex(where: { $0.seq == seq }) { state.log[i].entry.status = status }
        }
        return response
    }

    /// The answer to `request` when it takes no work: no fault rule applies and an earlier request
    /// made the same answer (`handle` keeps every answer it makes). Logged as `handle` logs it.
    /// The caller sends it after `latency` (the configured latency and jitter), as `handle` would
    /// have; nil: call `handle`.
    public func keptAnswer(_ request: DemoRequest) -> (response: DemoResponse, latency: Duration)? {
        guard !request.path.hasPrefix("/__demo/"), request.method == "GET" || request.method == "HEAD",
            let kept = answers.answer(for: AnswerMemo.key(request))
        else { return nil }
        let entry = RequestLogEntry(request, service: DemoService(path: request.path), status: kept.status)
        let logged = state.withLock { state in
            guard state.fault(for: request.path) == nil else { return false }
            _ = state.log(entry, maxEntries: options.maxLogEntries)
            return true
        }
        guard logged else { return nil }
        return (kept, .milliseconds(latencyMs()))
    }

    /// The configured latency plus a random 0…`jitterMs`, in milliseconds.
    private func latencyMs() -> Int {
        options.latencyMs + (options.jitterMs > 0 ? Int.random(in: 0...options.jitterMs) : 0)
    }

    private func offload(_ work: @escaping @Sendable () -> DemoResponse) async -> DemoResponse {
        await withCheckedContinuation { continuation in
            Self.workQueue.async { continuation.resume(returning: work()) }
        }
    }

    /// The route's answer, kept in `answers` for the next request that reads the same.
    private func answer(_ request: DemoRequest, _ service: DemoService) -> DemoResponse {
        let key = AnswerMemo.key(request)
        if let kept = answers.answer(for: key) { return kept }
        let response = route(request, service)
        answers.keep(response, for: key)
        return response
    }

    private func route(_ request: DemoRequest, _ service: DemoService) -> DemoResponse {
        switch service {
        case .iTunes: itunes.handle(request)
        case .appleMusic: appleMusic.handle(request)
        case .rakuten: rakuten.handle(request)
        case .youTube: youTube.handle(request)
        case .tmdb: tmdb.handle(request)
        case .unknown: DemoResponse.plain(404, "demo-upstream: no emulated API at \(request.path)")
        }
    }

    // MARK: - Control endpoints

    private func control(_ request: DemoRequest) -> DemoResponse {
        switch (request.method, request.path) {
        case ("GET", "/__demo/health"):
            return DemoResponse.json(200, #"{"ok":true}"#)
        case ("GET", "/__demo/faults"):
            return DemoResponse.json(200, faultsJSON())
        case ("POST", "/__demo/faults"), ("PUT", "/__demo/faults"):
            do {
                let rules = try FaultRule.parse(request.body)
                state.withLock { state in
                    state.faults = rules
                    state.counters = [:]
                }
                return DemoResponse.json(200, faultsJSON())
            } catch {
                return DemoResponse.json(400, JSONText.object([("error", .string(error.description))]).compact)
            }
        case ("DELETE", "/__demo/faults"):
            state.withLock { state in
                state.faults = []
                state.counters = [:]
            }
            return DemoResponse.json(200, "{}")
        case ("GET", "/__demo/requests"):
            let entries = state.withLock { $0.log.map(\.entry.json) }
            return DemoResponse.json(200, JSONText.array(entries).compact)
        case ("DELETE", "/__demo/requests"):
            let cleared = state.withLock { state in
                defer { state.log = [] }
                return state.log.count
            }
            return DemoResponse.json(200, #"{"cleared":\#(cleared)}"#)
        default:
            return DemoResponse.plain(404, "demo-upstream: unknown control endpoint \(request.method) \(request.path)")
        }
    }

    private func faultsJSON() -> String {
        let rules = state.withLock { $0.faults }
        return JSONText.object(rules.map { ($0.prefix, $0.rule.json) }).compact
    }

    private static func sleep(ms: Int) async {
        guard ms > 0 else { return }
        try? await Task.sleep(for: .milliseconds(ms))
    }
}
