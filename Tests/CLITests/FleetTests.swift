import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// Two `musicgraph serve` processes sharing one real `redis-server` (`--store redis://…`), both
/// pointed at one `demo-upstream` process: what one instance fetched or is fetching, the other
/// does not fetch again, and the day's quota is one ledger for both.
@Suite(.enabled(if: RedisServer.binary != nil, Comment(rawValue: RedisServer.missing)), .serialized)
struct FleetTests {
    static let ironMaiden =
        #"{ artist(name: \"Iron Maiden\") { name albums { title tracks { title videos(first: 1) { title url } } } } }"#
    static let keys = [
        "YOUTUBE_API_KEY": "fleet-yt-key-7f3a", "TMDB_API_KEY": "fleet-tmdb-key-7f3a",
        "APPLE_MUSIC_TOKEN": "fleet-am-token-7f3a", "RAKUTEN_APP_ID": "fleet-rk-app-7f3a", "MUSICGRAPH_STORE": "",
        "MUSICGRAPH_DAILY_QUOTA": "", "MUSICGRAPH_MAX_QUERY_COST": "",
    ]

    static func gateway(
        _ demo: CLIChild, _ redis: RedisServer, quota: String = "youtube=0", options: [String] = []
    ) throws -> CLIChild {
        try CLIChild(
            [
                "serve", "--port", "0", "--upstream", demo.url, "--store", "redis://127.0.0.1:\(redis.port)",
                "--daily-quota", quota, "--request-timeout-ms", "0",
            ] + options, environment: keys)
    }

    static func post(_ gateway: CLIChild, _ query: String) async throws -> [String: Any] {
        try await post(gateway.url, query)
    }

    static func post(_ url: String, _ query: String, key: String? = nil) async throws -> [String: Any] {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let key { headers.add(name: "Authorization", value: "Bearer " + key) }
        let response = try await HTTPClient().execute(
            HTTPClientRequest(method: .post, url: url, headers: headers, body: Array(#"{"query":"\#(query)"}"#.utf8)))
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    static func requests(_ response: [String: Any]) -> Int? {
        ((response["extensions"] as? [String: Any])?["upstream"] as? [String: Any])?["requests"] as? Int
    }

    static func log(_ demo: CLIChild) async throws -> [[String: Any]] {
        let response = try await HTTPClient().execute(HTTPClientRequest(url: demo.url + "/__demo/requests"))
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]] ?? []
    }

    static func clearLog(_ demo: CLIChild) async throws {
        _ = try await HTTPClient().execute(HTTPClientRequest(method: "DELETE", url: demo.url + "/__demo/requests"))
    }

    @Test func aResponseOneInstanceFetchedIsAHitForTheOtherAndAfterRestarts() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        var a = try Self.gateway(demo, redis)
        var b = try Self.gateway(demo, redis)
        let first = try await Self.post(a, Self.ironMaiden)
        #expect(first["errors"] == nil)
        #expect(Self.requests(first) == 153)
        #expect(try await Self.log(demo).count == 153)
        let second = try await Self.post(b, Self.ironMaiden)
        #expect(Self.requests(second) == 0)
        #expect((second["data"] as? NSDictionary) == (first["data"] as? NSDictionary))
        #expect(try await Self.log(demo).count == 153)
        a.stop()
        b.stop()
        a = try Self.gateway(demo, redis)
        b = try Self.gateway(demo, redis)
        defer {
            a.stop()
            b.stop()
        }
        #expect(Self.requests(try await Self.post(a, Self.ironMaiden)) == 0)
        #expect(Self.requests(try await Self.post(b, Self.ironMaiden)) == 0)
        #expect(try await Self.log(demo).count == 153)
        // Keys are namespaced, and none holds a configured secret.
        let keys = try redisCLI(redis, ["--raw", "KEYS", "*"]).split(separator: "\n")
        #expect(keys.count > 150)
        #expect(keys.allSatisfy { $0.hasPrefix("musicgraph:v1:") })
        #expect(!keys.contains { key in Self.keys.values.contains { !$0.isEmpty && key.contains($0) } })
    }

    @Test func concurrentColdQueriesOverBothInstancesSendEachRequestOnce() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0", "--latency-ms", "20"])
        defer { demo.stop() }
        let gateways = [try Self.gateway(demo, redis), try Self.gateway(demo, redis)]
        defer { for gateway in gateways { gateway.stop() } }
        let urls = gateways.map(\.url)
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<16 {
                group.addTask {
                    let response = try await Self.post(urls[i % 2], Self.ironMaiden)
                    return response["errors"] == nil && response["data"] is [String: Any]
                }
            }
            var all: [Bool] = []
            for try await ok in group { all.append(ok) }
            return all
        }
        #expect(answered.count == 16)
        #expect(answered.allSatisfy { $0 })
        let total = try await Self.log(demo).count
        #expect(total <= 153)
        #expect(total == 153)
    }

    /// Found by a black-box fleet run: an instance with a shorter `--timeout-ms` waited for the
    /// other's claim only as long as its own claim would last, then sent the search itself
    /// (and timed out on it, twice): three sends, 300 units, for one search in flight.
    @Test func anInstanceWithAShorterTimeoutWaitsForTheOthersLiveClaim() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let store = "redis://127.0.0.1:\(redis.port)"
        func gateway(timeoutMs: Int) throws -> CLIChild {
            try CLIChild(
                [
                    "serve", "--port", "0", "--upstream", demo.url, "--store", store, "--daily-quota", "youtube=0",
                    "--request-timeout-ms", "0", "--timeout-ms", "\(timeoutMs)",
                ], environment: Self.keys)
        }
        let patient = try gateway(timeoutMs: 10_000)
        let hasty = try gateway(timeoutMs: 400)  // its own claims last 400 × 2 tries + 1 s
        defer {
            patient.stop()
            hasty.stop()
        }
        _ = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: demo.url + "/__demo/faults",
                body: Array(#"{"/youtube/v3/search":{"latencyMs":3500}}"#.utf8)))
        let query = #"{ videos(query: \"mixed timeouts\", first: 1) { title } }"#
        let (patientURL, hastyURL) = (patient.url, hasty.url)
        async let first = Self.post(patientURL, query)
        try await Task.sleep(for: .milliseconds(300))
        let second = try await Self.post(hastyURL, query)
        let answered = try await first
        #expect(answered["errors"] == nil)
        #expect(second["errors"] == nil, "\(second)")
        #expect((second["data"] as? NSDictionary) == (answered["data"] as? NSDictionary))
        let searches = try await Self.log(demo).filter { $0["path"] as? String == "/youtube/v3/search" }
        #expect(searches.count == 1)
    }

    /// Found by a black-box fleet run: a send that failed reached only its own process's
    /// waiters; every other instance waiting on its claim then sent it again with all its tries
    /// (6 sends, 600 units, for one failing search on three instances).
    @Test func aFailedSendReachesTheWaitersOfEveryInstance() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let gateways = try (0..<3).map { _ in try Self.gateway(demo, redis) }
        defer { for gateway in gateways { gateway.stop() } }
        _ = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: demo.url + "/__demo/faults",
                body: Array(#"{"/youtube/v3/search":{"status":503,"latencyMs":400}}"#.utf8)))
        let urls = gateways.map(\.url)
        let query = #"{ videos(query: \"failing everywhere\", first: 1) { title } }"#
        // Each answer's error code and count of reads that shared another's send.
        let answers = try await withThrowingTaskGroup(of: (code: String?, deduplicated: Int?).self) { group in
            for url in urls {
                group.addTask {
                    let response = try await Self.post(url, query)
                    let error = (response["errors"] as? [[String: Any]])?.first
                    let upstream = (response["extensions"] as? [String: Any])?["upstream"] as? [String: Any]
                    return (
                        (error?["extensions"] as? [String: Any])?["code"] as? String, upstream?["deduplicated"] as? Int
                    )
                }
            }
            var all: [(code: String?, deduplicated: Int?)] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        let searches = try await Self.log(demo).filter { $0["path"] as? String == "/youtube/v3/search" }
        #expect(searches.count == 2)  // the claimant's two tries, nobody else's
        let codes = answers.map(\.code)
        #expect(codes.count == 3)
        #expect(Set(codes).count == 1, "\(codes)")
        #expect(codes.first ?? nil != nil)
        let deduplicated = answers.compactMap(\.deduplicated)
        #expect(deduplicated.sorted() == [0, 1, 1])
    }

    @Test func theDailyQuotaIsOneLedgerForTheFleet() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        // Anonymous clients may spend the whole day here: this is the day's ledger alone.
        let whole = ["--anonymous-share", "100%", "--anonymous-pool", "100%"]
        let gateways = [
            try Self.gateway(demo, redis, quota: "youtube=1000", options: whole),
            try Self.gateway(demo, redis, quota: "youtube=1000", options: whole),
        ]
        defer { for gateway in gateways { gateway.stop() } }
        let urls = gateways.map(\.url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<4 { group.addTask { _ = try await Self.post(urls[i % 2], Self.ironMaiden) } }
            try await group.waitForAll()
        }
        for (i, name) in ["Thunderstruck", "Back in Black", "Hells Bells", "Run to the Hills"].enumerated() {
            _ = try await Self.post(gateways[i % 2], #"{ videos(query: \"\#(name)\", first: 1) { title } }"#)
        }
        let searches = try await Self.log(demo).filter { ($0["path"] as? String) == "/youtube/v3/search" }
        #expect(searches.count == 10)
    }

    @Test func twoKeyedClientsSpendExactlyTheirSharesWhicheverInstanceTheyAsk() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        // The large client is written by the SHA-256 of its key (printf large-client-key-000000 | sha256sum).
        let (smallKey, largeKey) = ("small-client-key-000000", "large-client-key-000000")
        let tree = try TemporaryTree(text: [
            "clients": "small \(smallKey) share=youtube:30%\n"
                + "large sha256:94bea28dd51b34cf0585fc8167f5eae3751c5a53dcb336c848dcaab5ed313180 share=youtube:70%\n"
        ])
        defer { tree.remove() }
        let options = ["--clients", tree.path("clients")]
        let gateways = [
            try Self.gateway(demo, redis, quota: "youtube=1000", options: options),
            try Self.gateway(demo, redis, quota: "youtube=1000", options: options),
        ]
        defer { for gateway in gateways { gateway.stop() } }
        func searches() async throws -> Int {
            try await Self.log(demo).filter { ($0["path"] as? String) == "/youtube/v3/search" }.count
        }
        @Sendable func refusedCodes(_ response: [String: Any]) -> Set<String> {
            Set(
                (response["errors"] as? [[String: Any]] ?? []).compactMap {
                    ($0["extensions"] as? [String: Any])?["code"] as? String
                })
        }
        let urls = gateways.map(\.url)
        var small: [Set<String>] = []
        try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for i in 0..<4 {
                group.addTask { refusedCodes(try await Self.post(urls[i % 2], Self.ironMaiden, key: smallKey)) }
            }
            for try await codes in group { small.append(codes) }
        }
        #expect(try await searches() == 3)  // 30% of 1,000 units: three searches of 100
        #expect(small.allSatisfy { $0 == ["CLIENT_QUOTA_EXCEEDED"] })
        var large: [Set<String>] = []
        try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for i in 0..<4 {
                group.addTask { refusedCodes(try await Self.post(urls[i % 2], Self.ironMaiden, key: largeKey)) }
            }
            for try await codes in group { large.append(codes) }
        }
        #expect(try await searches() == 10)  // and 70%: seven more; the first three were kept answers
        // The large client's share ends where the day does: its last refusals are the day's.
        #expect(
            large.allSatisfy { !$0.isEmpty && $0.isSubset(of: ["CLIENT_QUOTA_EXCEEDED", "UPSTREAM_QUOTA_EXCEEDED"]) })
        // An unknown key is refused, never served as anonymous.
        let unknown = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: urls[0],
                headers: ["Content-Type": "application/json", "Authorization": "Bearer not-a-known-key-0000"],
                body: Array(#"{"query":"{ __typename }"}"#.utf8)))
        #expect(unknown.status == 401)
    }

    @Test func aClientsRateIsOneAllowanceForTheFleetAndHoldsWithoutRedis() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let key = "rated-client-key-0000000"
        let tree = try TemporaryTree(text: ["clients": "web \(key) rate=3/m\n"])
        defer { tree.remove() }
        let gateways = [
            try Self.gateway(demo, redis, options: ["--clients", tree.path("clients")]),
            try Self.gateway(demo, redis, options: ["--clients", tree.path("clients")]),
        ]
        defer { for gateway in gateways { gateway.stop() } }
        func send(_ gateway: CLIChild, key: String? = key) async throws -> HTTPClientResponse {
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            if let key { headers.add(name: "X-API-Key", value: key) }
            return try await HTTPClient().execute(
                HTTPClientRequest(
                    method: .post, url: gateway.url, headers: headers, body: Array(#"{"query":"{ __typename }"}"#.utf8))
            )
        }
        var statuses: [Int] = []
        for i in 0..<4 { statuses.append(try await send(gateways[i % 2]).status.code) }
        // Three a minute whichever instance is asked: the fourth is refused.
        #expect(statuses == [200, 200, 200, 429])
        let refused = try await send(gateways[1])
        #expect(refused.status.code == 429)
        #expect(Int(refused.headers["Retry-After"] ?? "") ?? 0 > 0)
        #expect(refused.headers["RateLimit-Policy"] == "\"client\";q=3;w=60")
        // Anonymous requests have no rate here.
        #expect(try await send(gateways[0], key: nil).status.code == 200)

        // Without Redis each instance counts on its own, and says so in /metrics.
        redis.stop()
        let alone = try await send(gateways[0])
        #expect(alone.status.code == 200)
        let metrics = try await HTTPClient().execute(
            HTTPClientRequest(url: gateways[0].url.replacingOccurrences(of: "/graphql", with: "/metrics")))
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("musicgraph_client_rate_store_failures_total 1"))
    }

    @Test func aRedisThatGoesAwayCostsUpstreamRequestsNotAnswers() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let (a, b) = (try Self.gateway(demo, redis), try Self.gateway(demo, redis))
        defer {
            a.stop()
            b.stop()
        }
        let query = #"{ artist(name: \"AC/DC\") { name albums(first: 2) { title } } }"#
        #expect(Self.requests(try await Self.post(a, query)) == 2)
        redis.stop()
        // B has never seen it and cannot ask the store: it fetches it itself, and answers.
        let alone = try await Self.post(b, query)
        #expect(alone["errors"] == nil)
        #expect(Self.requests(alone) == 2)
        let degraded = try await HTTPClient().execute(HTTPClientRequest(url: Self.base(b) + "/readyz"))
        let readiness = String(decoding: degraded.body, as: UTF8.self)
        #expect(degraded.status.code == 200)
        #expect(readiness.contains(#""status":"degraded""#))
        let metrics = try await HTTPClient().execute(HTTPClientRequest(url: Self.base(b) + "/metrics"))
        #expect(String(decoding: metrics.body, as: UTF8.self).contains(#"musicgraph_store_up{kind="redis"} 0"#))

        try redis.restart()
        // Back by itself: within seconds a response A fetches is a hit for B again.
        var hit = false
        for attempt in 0..<50 where !hit {
            let probe = #"{ videos(query: \"after \#(attempt)\", first: 1) { title } }"#
            _ = try await Self.post(a, probe)
            hit = Self.requests(try await Self.post(b, probe)) == 0
            if !hit { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(hit)
        let ready = try await HTTPClient().execute(HTTPClientRequest(url: Self.base(b) + "/readyz"))
        #expect(String(decoding: ready.body, as: UTF8.self).contains(#""status":"ready""#))
    }

    @Test func aHungRedisCostsAQueryAboutWhatNoStoreCostsAndHitsReturnOnceItAnswers() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let (a, b) = (try Self.gateway(demo, redis), try Self.gateway(demo, redis))
        let alone = try CLIChild(
            ["serve", "--port", "0", "--upstream", demo.url, "--store", "memory", "--daily-quota", "youtube=0"],
            environment: Self.keys)
        defer {
            a.stop()
            b.stop()
            alone.stop()
        }
        let warm = #"{ artist(name: \"AC/DC\") { name } }"#
        #expect(Self.requests(try await Self.post(a, warm)) == 1)
        #expect(Self.requests(try await Self.post(b, warm)) == 0)
        redis.pause()
        defer { redis.resume() }
        // Each server's watch asks the store once a second: wait until both say they are degraded.
        for gateway in [a, b] {
            var degraded = false
            for _ in 0..<100 where !degraded {
                let answer = try await HTTPClient().execute(HTTPClientRequest(url: Self.base(gateway) + "/readyz"))
                degraded = String(decoding: answer.body, as: UTF8.self).contains(#""status":"degraded""#)
                if !degraded { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(degraded)
        }
        // The nested query, cold for both: under the hung Redis it costs what it costs without a store
        // (before the breaker, every level waited out the store's 500 ms timeouts: 9.2 s).
        let clock = ContinuousClock()
        var without: [String: Any] = [:]
        let noStore = try await clock.measure { without = try await Self.post(alone, Self.ironMaiden) }
        var hung: [String: Any] = [:]
        let hungStore = try await clock.measure { hung = try await Self.post(a, Self.ironMaiden) }
        print("nested query: no store \(noStore), hung redis \(hungStore)")
        #expect(hung["errors"] == nil)
        #expect(Self.requests(hung) == 153)
        #expect((hung["data"] as? NSDictionary) == (without["data"] as? NSDictionary))
        #expect(hungStore < noStore * 3 + .milliseconds(500))

        redis.resume()
        // Back by itself: within seconds a response A fetches is a hit for B again.
        var hit = false
        let resumed = ContinuousClock.now
        for attempt in 0..<100 where !hit {
            let probe = #"{ videos(query: \"after SIGCONT \#(attempt)\", first: 1) { title } }"#
            _ = try await Self.post(a, probe)
            hit = Self.requests(try await Self.post(b, probe)) == 0
            if !hit { try await Task.sleep(for: .milliseconds(100)) }
        }
        print("hits again \(ContinuousClock.now - resumed) after SIGCONT")
        #expect(hit)
    }

    /// `http://127.0.0.1:PORT` of a gateway whose URL ends in `/graphql`.
    static func base(_ gateway: CLIChild) -> String {
        String(gateway.url.dropLast("/graphql".count))
    }
}
