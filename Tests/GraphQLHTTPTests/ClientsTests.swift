import GraphQL
import HTTPServer
import HTTPTypes
import Testing

@testable import GraphQLHTTP

/// The clients file, who a request comes from, and each client's request rate.
@Suite struct ClientsFileTests {
    static let webKey = "web-key-0123456789abcdef"
    static let ciKey = "ci-key-fedcba9876543210"

    static let file = """
        # name  key  options
        web  \(webKey)  rate=5/s share=youtube:30%,tmdb:50%
        ci   sha256:\(SHA256.hexDigest(ciKey))  rate=120/m burst=3 share=70%

        batch  batch-key-00000000000000  # no options
        """

    @Test func entriesKeepNamesRatesSharesAndOnlyDigestsOfKeys() throws {
        let clients = try ClientsFile.parse(Self.file, path: "clients.txt")
        #expect(clients.entries.map(\.name) == ["web", "ci", "batch"])
        #expect(clients.entries.map(\.line) == [2, 3, 5])
        #expect(clients.entries[0].keyDigest == SHA256.digest(Array(Self.webKey.utf8)))
        #expect(clients.entries[1].keyDigest == SHA256.digest(Array(Self.ciKey.utf8)))
        #expect(clients.entries[0].rate == RateLimit(count: 5, periodMs: 1_000, burst: 5))
        #expect(clients.entries[1].rate == RateLimit(count: 120, periodMs: 60_000, burst: 3))
        #expect(clients.entries[2].rate == nil)
        #expect(clients.entries[0].shares == ["youtube": 0.3, "tmdb": 0.5])
        #expect(clients.entries[1].shares == ["*": 0.7])
        #expect(!String(describing: clients).contains(Self.webKey))
    }

    @Test(arguments: [
        ("web\n", 1, "web", "found no key"),
        ("ok  key-0000000000000000\nweb key-0000000000000000\n", 2, "web", "already the key of line 2"),
        ("web key-0000000000000000\nweb key-1111111111111111\n", 2, "web", "already used on line 2"),
        ("w/b key-0000000000000000\n", 1, "w/b", "a client's name is"),
        ("web short\n", 1, "web", "16 to 4096 bytes"),
        ("web sha256:abc\n", 1, "web", "64 hexadecimal digits"),
        ("web key-0000000000000000 share=130%\n", 1, "web", "share '130%'"),
        ("web key-0000000000000000 share=youtube:-1%\n", 1, "web", "share 'youtube:-1%'"),
        ("web key-0000000000000000 share=youtube:5%,youtube:6%\n", 1, "web", "names youtube twice"),
        ("web key-0000000000000000 rate=fast\n", 1, "web", "rate 'fast'"),
        ("web key-0000000000000000 rate=0/s\n", 1, "web", "rate '0/s'"),
        ("web key-0000000000000000 burst=4\n", 1, "web", "burst= needs a rate="),
        ("web key-0000000000000000 color=red\n", 1, "web", "unknown option 'color'"),
        ("web key-0000000000000000 rate\n", 1, "web", "is not NAME=VALUE"),
    ])
    func aBadLineIsNamedWithItsEntry(text: String, line: Int, entry: String, message: String) {
        #expect {
            _ = try ClientsFile.parse("# clients\n" + text, path: "c.txt")
        } throws: { error in
            guard let error = error as? ClientsFileError else { return false }
            return error.line == line + 1 && error.entry == entry && error.message.contains(message)
                && error.description.hasPrefix("c.txt, line \(line + 1) (client '\(entry)'): ")
        }
    }

    @Test func aKeyNeverAppearsInAnError() {
        let key = "secret-key-with-a-bad-share-0000"
        #expect {
            _ = try ClientsFile.parse("web \(key) share=youtube\n", path: "c.txt")
        } throws: { error in
            !String(describing: error).contains(key)
        }
    }
}

@Suite struct ClientIdentificationTests {
    static let policy = ClientPolicy(
        clients: try! ClientsFile.parse(ClientsFileTests.file, path: "clients.txt"),
        trustedProxies: [ClientAddressRange(parsing: "10.0.0.0/8")!, ClientAddressRange(parsing: "::1")!])

    static func request(_ headers: [(String, String)] = [], from address: String? = "192.0.2.7") -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: "/graphql", headers: HTTPHeaders(headers),
            clientAddress: address.flatMap { ClientAddress(parsing: $0) })
    }

    static func identified(_ request: HTTPRequest, _ policy: ClientPolicy = policy) -> RequestClient? {
        if case .client(let client, _) = policy.identify(request) { return client }
        return nil
    }

    @Test func aKnownKeyNamesItsClientByBearerOrXAPIKey() {
        #expect(
            Self.identified(Self.request([("Authorization", "Bearer \(ClientsFileTests.webKey)")])) == .keyed("web"))
        #expect(Self.identified(Self.request([("Authorization", "bearer  \(ClientsFileTests.ciKey)")])) == .keyed("ci"))
        #expect(Self.identified(Self.request([("X-API-Key", ClientsFileTests.ciKey)])) == .keyed("ci"))
        guard case .client(_, let rate) = Self.policy.identify(Self.request([("X-API-Key", ClientsFileTests.webKey)]))
        else {
            Issue.record("refused")
            return
        }
        #expect(rate == RateLimit(count: 5, periodMs: 1_000))
    }

    @Test(arguments: [
        [("Authorization", "Bearer not-a-key-of-this-server")],
        [("X-API-Key", "x")],
        [("X-API-Key", String(repeating: "k", count: 100_000))],
        [("Authorization", "Bearer " + ClientsFileTests.webKey + "\u{1}")],
        [("Authorization", "Bearer sha256:" + SHA256.hexDigest(ClientsFileTests.webKey))],
    ])
    func anUnknownKeyIsRefusedNeverTakenForAnonymous(headers: [(String, String)]) {
        guard case .refused(let error) = Self.policy.identify(Self.request(headers)) else {
            Issue.record("not refused")
            return
        }
        #expect(error.code == "UNAUTHENTICATED")
        #expect(error.status.code == 401)
    }

    @Test func withoutAClientsFileKeysAreNotLookedAt() {
        let open = ClientPolicy()
        #expect(
            Self.identified(Self.request([("Authorization", "Bearer whatever-key-0000000000")]), open)
                == .anonymous(address: "192.0.2.7"))
        // Another scheme is not a client key.
        #expect(
            Self.identified(Self.request([("Authorization", "Basic dXNlcjpwYXNz")])) == .anonymous(address: "192.0.2.7")
        )
    }

    @Test func forwardedForIsBelievedOnlyFromATrustedProxy() {
        // A forged entry on the left is the client's own claim: the right-most untrusted one wins.
        let forwarded = [("X-Forwarded-For", "203.0.113.66, 198.51.100.9, 10.1.2.3")]
        #expect(Self.identified(Self.request(forwarded, from: "10.0.0.1")) == .anonymous(address: "198.51.100.9"))
        #expect(Self.identified(Self.request(forwarded, from: "::1")) == .anonymous(address: "198.51.100.9"))
        // From an untrusted peer the header changes nothing.
        #expect(Self.identified(Self.request(forwarded, from: "192.0.2.7")) == .anonymous(address: "192.0.2.7"))
        // A hop that is no address stops the walk at the last good one.
        let garbled = [("X-Forwarded-For", "198.51.100.9, <script>, 10.9.9.9")]
        #expect(Self.identified(Self.request(garbled, from: "10.0.0.1")) == .anonymous(address: "10.9.9.9"))
        #expect(Self.identified(Self.request([], from: nil)) == .anonymous(address: "unknown"))
        #expect(
            Self.identified(Self.request([("X-Forwarded-For", "2001:db8::7")], from: "10.0.0.1"))
                == .anonymous(address: "2001:db8::7"))
    }

    @Test func addressRangesMatchTheirPrefixOnly() throws {
        let v4 = try #require(ClientAddressRange(parsing: "192.168.4.0/22"))
        #expect(v4.contains(try #require(ClientAddress(parsing: "192.168.7.255"))))
        #expect(!v4.contains(try #require(ClientAddress(parsing: "192.168.8.0"))))
        #expect(v4.contains(try #require(ClientAddress(parsing: "::ffff:192.168.5.1"))))
        let v6 = try #require(ClientAddressRange(parsing: "2001:db8::/32"))
        #expect(v6.contains(try #require(ClientAddress(parsing: "2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(ClientAddress(parsing: "2001:db9::1"))))
        #expect(!v6.contains(try #require(ClientAddress(parsing: "192.168.5.1"))))
        for bad in ["10.0.0.0/33", "::/129", "10.0.0/8", "host", "10.0.0.0/x", ""] {
            #expect(ClientAddressRange(parsing: bad) == nil, "\(bad)")
        }
        #expect(ClientAddress(parsing: "2001:0db8:0:0:0:0:0:1")?.description == "2001:db8::1")
        #expect(ClientAddress(parsing: "::ffff:10.0.0.1")?.description == "10.0.0.1")
    }
}

@Suite struct ClientRateLimiterTests {
    @Test func aBurstIsAdmittedThenOneRequestPerInterval() {
        let limiter = ClientRateLimiter()
        let limit = RateLimit(count: 5, periodMs: 1_000, burst: 3)
        let admitted = (0..<5).map { _ in limiter.admit("a", limit, nowUs: 0) }
        #expect(admitted.map(\.admitted) == [true, true, true, false, false])
        #expect(admitted.map(\.remaining) == [2, 1, 0, 0, 0])
        // The next one is due 200 ms after the burst's first.
        #expect(admitted[3].retryAfterUs == 200_000)
        #expect(admitted[3].retryAfterSeconds == 1)
        #expect(!limiter.admit("a", limit, nowUs: 199_999).admitted)
        #expect(limiter.admit("a", limit, nowUs: 200_000).admitted)
        // Another client has its own allowance.
        #expect(limiter.admit("b", limit, nowUs: 0).admitted)
    }

    @Test func tenPerSecondUnderFivePerSecondAdmitsAboutHalf() {
        let limiter = ClientRateLimiter()
        let limit = RateLimit(count: 5, periodMs: 1_000)
        let admitted = (0..<50).filter { limiter.admit("c", limit, nowUs: Int64($0) * 100_000).admitted }.count
        // 5 at once, then one per 200 ms over the 4.9 s that follow.
        #expect(admitted == 5 + 24)
    }

    @Test func headersFollowTheRateLimitDraft() {
        let limiter = ClientRateLimiter()
        let limit = RateLimit(count: 10, periodMs: 1_000)
        let decision = limiter.admit("a", limit, nowUs: 0)
        let headers = Dictionary(uniqueKeysWithValues: decision.headers().map { ($0.name, $0.value) })
        #expect(headers["RateLimit-Policy"] == "\"client\";q=10;w=1")
        #expect(headers["RateLimit"] == "\"client\";r=9;t=1")
    }
}

/// The clients' checks on a real server: 401, 429 with its headers, the client in the log line
/// and `/metrics`, and `RequestClient.current` in the work it runs.
@Suite struct ClientEndpointTests {
    /// Answers `{ hello }` with the client it ran for in `extensions.client`.
    static let echoClient: GraphQLHTTPHandler.Execute = { document, operationName, variables in
        let result = await GraphQL.execute(
            schema: TestGateway.schema, document: document.document, source: document.source,
            variableValues: variables, operationName: operationName, resolvers: TestGateway.Resolvers())
        let client = RequestClient.current.map { JSONValue.string($0.description) } ?? .null
        return .executed(result, extensions: JSONObject([("client", client), ("dryRun", .bool(RequestMode.dryRun))]))
    }

    static func server(anonymousRate: RateLimit? = nil) throws -> TestServer {
        let clients = try ClientsFile.parse(ClientsFileTests.file, path: "clients.txt")
        return try TestServer(
            configure: { $0.clientPolicy = ClientPolicy(clients: clients, anonymousRate: anonymousRate) },
            execute: echoClient)
    }

    @Test func theWorkRunsForTheClientAndItsLogLineAndMetricsNameIt() async throws {
        let test = try Self.server()
        let keyed = try await test.post(
            #"{"query":"{ hello }"}"#, headers: [("Authorization", "Bearer \(ClientsFileTests.ciKey)")])
        #expect(keyed.status == 200)
        #expect(keyed.text.contains(#""client":"ci""#))
        let anonymous = try await test.post(#"{"query":"{ hello }"}"#)
        #expect(anonymous.text.contains(#""client":"anonymous (127.0.0.1)""#))
        let metrics = try await test.get("/metrics")
        #expect(metrics.text.contains(#"musicgraph_client_requests_total{client="ci",status="200"} 1"#))
        #expect(metrics.text.contains(#"musicgraph_client_requests_total{client="anonymous",status="200"} 1"#))
        await test.server.shutdown()
        let lines = test.log.all.filter { $0.contains(#""path":"/graphql""#) }
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains(#""client":"ci","status":200"#) })
        #expect(lines.contains { $0.contains(#""client":"anonymous","status":200"#) })
        #expect(!test.log.all.joined().contains(ClientsFileTests.ciKey))
        #expect(!test.log.all.joined().contains("127.0.0.1"))
    }

    @Test func aQueryPlanHeaderRunsTheWorkAsADryRun() async throws {
        let test = try Self.server()
        let planned = try await test.post(
            #"{"query":"{ hello }"}"#, headers: [("MusicGraph-Query-Plan", "dry-run")])
        #expect(planned.text.contains(#""dryRun":true"#))
        let plain = try await test.post(#"{"query":"{ hello }"}"#)
        #expect(plain.text.contains(#""dryRun":false"#))
        await test.server.shutdown()
    }

    @Test func anUnknownKeyIsAnswered401AndNothingRuns() async throws {
        let test = try Self.server()
        let refused = try await test.post(
            #"{"query":"{ hello }"}"#, headers: [("X-API-Key", "not-a-key-of-this-server-000")])
        #expect(refused.status == 401)
        #expect(refused.headers["WWW-Authenticate"] == "Bearer")
        #expect(refused.text.contains(#""code":"UNAUTHENTICATED""#))
        #expect(!refused.text.contains("not-a-key-of-this-server-000"))
        #expect(!refused.text.contains("Hello"))
        // A browser's preflight carries no key and is answered as before.
        let preflight = try await test.request(
            "OPTIONS", "/graphql", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status != 401)
        await test.server.shutdown()
    }

    @Test func overItsRateAClientGets429WhileAnotherIsServed() async throws {
        let test = try Self.server(anonymousRate: RateLimit(count: 1, periodMs: 60_000, burst: 2))
        let web = [("Authorization", "Bearer \(ClientsFileTests.webKey)")]
        var statuses: [Int] = []
        var last: HTTPClientResponseLike?
        for _ in 0..<7 {
            let response = try await test.post(#"{"query":"{ hello }"}"#, headers: web)
            statuses.append(response.status.code)
            last = HTTPClientResponseLike(status: response.status.code, headers: response.headers, text: response.text)
        }
        // web may send 5 at once (rate=5/s): the next two within the same second are refused.
        #expect(statuses.prefix(5).allSatisfy { $0 == 200 })
        #expect(statuses.suffix(2).contains(429))
        let refused = try #require(last)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["RateLimit-Policy"] == "\"client\";q=5;w=1")
        #expect(refused.headers["RateLimit"]?.hasPrefix("\"client\";r=0;t=") == true)
        #expect(refused.text.contains(#""code":"RATE_LIMITED""#))
        // Another client is unaffected; the anonymous one has its own limit (2, then 429).
        let ci = try await test.post(
            #"{"query":"{ hello }"}"#, headers: [("X-API-Key", ClientsFileTests.ciKey)])
        #expect(ci.status == 200)
        let anonymous = [
            try await test.post(#"{"query":"{ hello }"}"#).status.code,
            try await test.post(#"{"query":"{ hello }"}"#).status.code,
            try await test.post(#"{"query":"{ hello }"}"#).status.code,
        ]
        #expect(anonymous == [200, 200, 429])
        await test.server.shutdown()
    }
}

/// What the rate test keeps of a response.
struct HTTPClientResponseLike {
    var status: Int
    var headers: HTTPHeaders
    var text: String
}
