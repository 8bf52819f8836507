import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// `serve --schema FILE` with an API added by declaration only (`examples/connectors`), against
/// the loopback JSON API of `Tests/Clients/json_api.py`: answers, request counts, batching,
/// dedup, the cache, secrets, URL shapes, faults, and the checks before serving.
@Suite(.serialized) struct ConnectorTests {
    static let key = "k3y-Zq9-not-for-logs"

    @Test func aDeclaredAPIIsBatchedDeduplicatedAndCached() async throws {
        let api = try JSONAPI()
        defer { api.stop() }
        let gateway = try Self.gateway(api)
        defer { gateway.stop() }

        let one = try await Self.post(
            gateway.url,
            #"{ release(id: "r5") { id title releaseDate artist trackCount } none: release(id: "zz") { id } "#
                + #"releaseSearch(query: "release 1") { id } }"#)
        let data = try #require(one["data"] as? [String: Any])
        let release = try #require(data["release"] as? [String: Any])
        #expect(release["title"] as? String == "Release 5")
        #expect(release["releaseDate"] as? String == "1975-01-06")
        #expect(release["artist"] as? String == "Artist 5")
        #expect(release["trackCount"] as? Int == 6)
        #expect(data["none"] is NSNull)
        #expect(
            (data["releaseSearch"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [
                "r1", "r10", "r11", "r12", "r13",
            ])
        let extensions = try #require(one["extensions"] as? [String: Any])
        let quota = try #require((extensions["quota"] as? [String: Any])?["releases"] as? [String: Any])
        #expect(quota["limit"] as? Int == 1000)
        #expect(quota["used"] as? Int == 3)
        #expect(try await api.log().count == 3)

        // 8 requests at once, 120 ids each over a batch limit of 50: 3 batches in all.
        try await api.reset()
        let query = "{ releaseIds(first: 120) { id details { title } } }"
        let url = gateway.url
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { try await Self.postRaw(url, query) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for body in bodies {
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            let refs = try #require((answer["data"] as? [String: Any])?["releaseIds"] as? [[String: Any]])
            #expect(refs.count == 120)
            #expect((refs[119]["details"] as? [String: Any])?["title"] as? String == "Release 120")
        }
        let log = try await api.log()
        let batches = log.filter { $0.hasPrefix("/ws/releases?") }
        #expect(batches.count == 3, "\(log)")
        #expect(batches.map(Self.idCount).sorted() == [20, 50, 50])
        #expect(log.filter { $0.hasPrefix("/ws/ids?") }.count == 1)
        // The declared separator as written, each value encoded, the secret last.
        #expect(
            batches.allSatisfy { $0.contains("ids=r") && $0.contains(",r") && $0.hasSuffix("&api_key=\(Self.key)") })

        // A repeat is the cache's.
        try await api.reset()
        _ = try await Self.post(gateway.url, query)
        #expect(try await api.log() == [])
    }

    @Test func userStringsFillOneSegmentOrOneValueAndSecretsStayOut() async throws {
        let api = try JSONAPI()
        defer { api.stop() }
        let gateway = try Self.gateway(api)
        defer { gateway.stop() }

        let answer = try await Self.post(
            gateway.url,
            #"{ release(id: "a/b?c#d&api_key=x") { id } artist(name: "AC/DC") { albums(first: 1) { tracks { title lyrics } } } }"#
        )
        let text = String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self)
        #expect(!text.contains(Self.key))
        let log = try await api.log()
        #expect(log.contains("/ws/release/a%2Fb%3Fc%23d%26api_key%3Dx?api_key=\(Self.key)"), "\(log)")
        // A field added to one of our own types, keyed by its fields: Track.artistName and title.
        let tracks = try #require(
            (((answer["data"] as? [String: Any])?["artist"] as? [String: Any])?["albums"] as? [[String: Any]])?.first?[
                "tracks"] as? [[String: Any]])
        #expect(!tracks.isEmpty)
        for track in tracks {
            let title = try #require(track["title"] as? String)
            #expect(track["lyrics"] as? String == "\(title) by AC/DC, la la la")
        }
        #expect(log.contains { $0.hasPrefix("/ws/lyrics?artist=AC%2FDC&title=") })
    }

    /// A declared secret in a query entry whose name is no known key parameter (`sig`) and in a
    /// header: the store file keeps the answer under a key without it, in any encoding.
    @Test func aDeclaredSecretNeverReachesTheStoreFile() async throws {
        let api = try JSONAPI()
        defer { api.stop() }
        let directory = try TemporaryTree([:])
        let store = directory.url.appendingPathComponent("store.sqlite").path
        let gateway = try Self.gateway(api, store: "sqlite:" + store)
        let answer = try await Self.post(gateway.url, #"{ signedRelease(id: "r4") { title } }"#)
        gateway.stop()
        #expect(
            ((answer["data"] as? [String: Any])?["signedRelease"] as? [String: Any])?["title"] as? String == "Release 4"
        )
        #expect(try await api.log().contains("/ws/release/r4?sig=\(Self.key)"))
        var written: [UInt8] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            written += Array(try Data(contentsOf: directory.url.appendingPathComponent(name)))
        }
        #expect(written.count > 0)
        #expect(written.firstRange(of: Array("/ws/release/r4".utf8)) != nil)  // the answer was stored
        let encodings = [
            Self.key, Data(Self.key.utf8).base64EncodedString(), Self.key.replacingOccurrences(of: "-", with: "%2D"),
        ]
        for encoding in encodings {
            #expect(written.firstRange(of: Array(encoding.utf8)) == nil, "\(encoding) is in the store file")
        }
    }

    @Test func faultsAreFieldErrorsAtTheirPaths() async throws {
        let api = try JSONAPI()
        defer { api.stop() }
        let gateway = try Self.gateway(api)
        defer { gateway.stop() }
        let answer = try await Self.post(gateway.url, #"{ broken(id: "1") { id } release(id: "r2") { title } }"#)
        let errors = try #require(answer["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors.first?["path"] as? [String] == ["broken"])
        #expect((errors.first?["extensions"] as? [String: Any])?["code"] as? String == "UPSTREAM_BAD_RESPONSE")
        #expect(((answer["data"] as? [String: Any])?["release"] as? [String: Any])?["title"] as? String == "Release 2")

        // A missing root, batch entries without their key, and ids a batch answer leaves out.
        let shapes = try await Self.post(
            gateway.url,
            #"{ rootless(id: "r1") { id } releaseIds(first: 3, offset: 997) { id details { id } keyless { id } } }"#)
        let shapeErrors = try #require(shapes["errors"] as? [[String: Any]])
        let located = shapeErrors.map { error in
            let path = (error["path"] as? [Any] ?? []).map { "\($0)" }.joined(separator: ".")
            return "\(path) \((error["extensions"] as? [String: Any])?["code"] as? String ?? "")"
        }
        #expect(
            located.sorted() == [
                "releaseIds.0.keyless UPSTREAM_BAD_RESPONSE", "releaseIds.1.keyless UPSTREAM_BAD_RESPONSE",
                "releaseIds.2.keyless UPSTREAM_BAD_RESPONSE", "rootless UPSTREAM_BAD_RESPONSE",
            ], "\(shapeErrors)")
        let refs = try #require((shapes["data"] as? [String: Any])?["releaseIds"] as? [[String: Any]])
        #expect(refs.map { $0["id"] as? String } == ["r998", "r999", "r1000"])
        #expect((refs[1]["details"] as? [String: Any])?["id"] as? String == "r999")
        #expect(refs[2]["details"] is NSNull)  // r1000: the batch answer leaves it out

        // `timeoutMs: 300` against an answer that takes 2 s.
        let started = ContinuousClock.now
        let slow = try await Self.post(gateway.url, #"{ slow(id: "1") { id } }"#)
        #expect(ContinuousClock.now - started < .seconds(1.5))
        let timeout = try #require((slow["errors"] as? [[String: Any]])?.first)
        #expect((timeout["extensions"] as? [String: Any])?["code"] as? String == "UPSTREAM_TIMEOUT")
        #expect(timeout["path"] as? [String] == ["slow"])

        // Without its secret the upstream is not configured, and nothing is sent.
        let unconfigured = try Self.gateway(api, key: nil)
        defer { unconfigured.stop() }
        try await api.reset()
        let refused = try await Self.post(unconfigured.url, #"{ release(id: "r3") { title } }"#)
        let error = try #require((refused["errors"] as? [[String: Any]])?.first)
        #expect((error["extensions"] as? [String: Any])?["code"] as? String == "UPSTREAM_NOT_CONFIGURED")
        #expect(error["path"] as? [String] == ["release"])
        #expect(try await api.log() == [])
    }

    /// Past `maxAgeSeconds`, an upstream that fails is answered by its last answer, and the
    /// fields it gave are listed in `extensions.stale` with their age, one call or a batch.
    @Test func staleAnswersOfDeclaredCallsAreListed() async throws {
        let api = try JSONAPI()
        defer { api.stop() }
        let gateway = try Self.gateway(api)
        defer { gateway.stop() }
        let query = #"{ briefRelease(id: "r3") { title } releaseIds(first: 2) { brief { title } } }"#
        let fresh = try await Self.post(gateway.url, query)
        #expect((fresh["extensions"] as? [String: Any])?["stale"] == nil)
        try await Task.sleep(for: .milliseconds(1_300))
        try await api.fail(true)
        let stale = try await Self.post(gateway.url, query)
        try await api.fail(false)
        #expect(stale["errors"] == nil, "\(stale)")
        let data = try #require(stale["data"] as? [String: Any])
        #expect((data["briefRelease"] as? [String: Any])?["title"] as? String == "Release 3")
        let entries = try #require((stale["extensions"] as? [String: Any])?["stale"] as? [[String: Any]])
        let paths = entries.map { ($0["path"] as? [Any] ?? []).map { "\($0)" }.joined(separator: ".") }
        #expect(paths.sorted() == ["briefRelease", "releaseIds.0.brief", "releaseIds.1.brief"], "\(entries)")
        #expect(entries.allSatisfy { ($0["ageSeconds"] as? Int ?? 0) >= 1 })
    }

    /// A dry run plans declared calls at the query level of the fields that ask for them, and
    /// reads the loaders' kept answers, as it does for the built-in APIs' calls.
    @Test func aDryRunPlansDeclaredCallsAtTheirLevel() async throws {
        let api = try JSONAPI()
        defer { api.stop() }
        let gateway = try Self.gateway(api)
        defer { gateway.stop() }
        _ = try await Self.post(gateway.url, "{ releaseIds(first: 120) { id } }")
        try await api.reset()
        let body = try JSONSerialization.data(withJSONObject: [
            "query": "{ releaseIds(first: 120) { id details { title } } }"
        ])
        let response = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: gateway.url,
                headers: ["Content-Type": "application/json", "MusicGraph-Query-Plan": "dry-run"], body: Array(body)))
        #expect(try await api.log() == [])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let plan = try #require((answer["extensions"] as? [String: Any])?["plan"] as? [String: Any], "\(answer)")
        let levels = try #require(plan["levels"] as? [[String: Any]])
        // The id list is the memo's kept answer (no call); its 120 ids make 3 batches of the
        // second level.
        #expect(plan["keptAnswers"] as? Int == 1)
        #expect(levels.map { $0["level"] as? Int } == [2], "\(levels)")
        #expect(levels.first?["send"] as? Int == 3)
        let endpoints = (plan["providers"] as? [String: Any])?["releases"] as? [String: Any]
        let batches = (endpoints?["endpoints"] as? [String: Any])?["/ws/releases"] as? [String: Any]
        #expect(batches?["ids"] as? Int == 120, "\(plan)")
    }

    @Test func brokenDeclarationsAreAllListedWithTheirLocations() throws {
        let directory = try TemporaryTree([:])
        let broken = """
            extend schema @upstream(name: "api", baseURL: "http://{$env.HOST}/v1")
            extend schema @upstream(name: "ok", baseURL: "http://127.0.0.1:9")
            extend type Query {
              a(id: ID!): Thing @http(upstream: "nope", path: "/a/{$args.id}")
              b(id: ID!): Thing @http(upstream: "ok", path: "/b/{$args.nope}")
              c: Thing @http(upstream: "ok", path: "/c", query: [{ name: "k", value: "{$env.KEY}" }])
            }
            extend type Album { thing: Thing @http(upstream: "ok", path: "/t", batch: { param: "x", max: 5 }) }
            extend type Track { rating: Int }
            type Thing { id: ID! }

            """
        let file = directory.url.appendingPathComponent("broken.graphql")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: CLI.schemaPath)), as: UTF8.self)
        try Data((text + broken).utf8).write(to: file)
        let first = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let run = try CLI.run(["validate", "--schema", file.path, "-"], stdin: "{ __typename }")
        #expect(run.status == 2)
        var lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "the schema's declarations have 7 problems:")
        lines.removeFirst()
        let path = file.path
        let expected = [
            "\(path):\(first):47: @upstream(name: \"api\"): baseURL 'http://{$env.HOST}/v1' has a template",
            "\(path):\(first + 3):37: @http on Query.a names upstream 'nope', which no @upstream declares",
            "\(path):\(first + 4):49: @http on Query.b: {$args.nope} names an argument b does not have",
            "\(path):\(first + 5):74: @http on Query.c: {$env.KEY} is allowed only in an @upstream's query and headers",
            "\(path):\(first + 7):75: @http on Album.thing: batch has no key",
            "\(path):\(first + 7):75: @http on Album.thing: batch param 'x' is not one of the query entries",
            "\(path):\(first + 8):21: Track.rating has no resolver",
        ]
        #expect(lines.count == expected.count, "\(run.stderr)")
        for (line, prefix) in zip(lines, expected) { #expect(line.hasPrefix(prefix), "\(line)") }
        // `serve` refuses the same file before it listens.
        let serve = try CLI.run(["serve", "--port", "0", "--store", "memory", "--schema", file.path])
        #expect(serve.status == 2)
        #expect(serve.stderr.contains("\(path):\(first + 8):21: Track.rating has no resolver"))
    }

    // MARK: Helpers

    /// `serve --demo` on the schema with the example's declarations pointing at `api`.
    static func gateway(_ api: JSONAPI, key: String? = ConnectorTests.key, store: String = "memory") throws -> CLIChild
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("connectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let schema = String(decoding: try Data(contentsOf: URL(fileURLWithPath: CLI.schemaPath)), as: UTF8.self)
        let example = String(
            decoding: try Data(contentsOf: CLI.root.appendingPathComponent("examples/connectors/releases.graphql")),
            as: UTF8.self
        ).replacingOccurrences(of: "127.0.0.1:8099", with: "127.0.0.1:\(api.port)")
        let broken = """
            extend schema @upstream(name: "hasty", baseURL: "http://127.0.0.1:\(api.port)", timeoutMs: 300)
            extend schema @upstream(name: "brief", baseURL: "http://127.0.0.1:\(api.port)", maxAgeSeconds: 1)
            extend schema @upstream(
              name: "signed", baseURL: "http://127.0.0.1:\(api.port)",
              query: [{ name: "sig", value: "{$env.RELEASES_API_KEY}" }],
              headers: [{ name: "X-Api-Key", value: "{$env.RELEASES_API_KEY}" }])
            extend type Query {
              broken(id: ID!): Release @http(upstream: "releases", path: "/ws/broken/{$args.id}")
              slow(id: ID!): Release @http(upstream: "hasty", path: "/ws/slow/{$args.id}")
              rootless(id: ID!): Release @http(upstream: "releases", path: "/ws/release/{$args.id}", select: "data")
              briefRelease(id: ID!): Release @http(upstream: "brief", path: "/ws/release/{$args.id}")
              signedRelease(id: ID!): Release @http(upstream: "signed", path: "/ws/release/{$args.id}")
            }
            extend type ReleaseRef {
              keyless: Release
                @http(
                  upstream: "releases", path: "/ws/releases", query: [{ name: "ids", value: "{$parent.id}" }],
                  select: "releases", batch: { param: "ids", max: 50, key: "catalogNumber" })
              brief: Release
                @http(
                  upstream: "brief", path: "/ws/releases", query: [{ name: "ids", value: "{$parent.id}" }],
                  select: "releases", batch: { param: "ids", max: 50, key: "id" })
            }

            """
        let file = directory.appendingPathComponent("schema.graphql")
        try Data((schema + example + broken).utf8).write(to: file)
        return try CLIChild(
            ["serve", "--demo", "--port", "0", "--store", store, "--schema", file.path],
            environment: key.map { ["RELEASES_API_KEY": $0] } ?? ["RELEASES_API_KEY": ""])
    }

    static func post(_ url: String, _ query: String) async throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try await postRaw(url, query))) as? [String: Any])
    }

    static func postRaw(_ url: String, _ query: String) async throws -> [UInt8] {
        let body = try JSONSerialization.data(withJSONObject: ["query": query])
        return try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: url, headers: ["Content-Type": "application/json"], body: Array(body))
        ).body
    }

    /// How many ids a `/ws/releases?ids=…` request asked for.
    static func idCount(_ request: String) -> Int {
        let ids = request.split(separator: "?").last?.split(separator: "&").first { $0.hasPrefix("ids=") } ?? ""
        return ids.dropFirst(4).split(separator: ",").count
    }
}

/// `Tests/Clients/json_api.py` on a free loopback port, requiring `ConnectorTests.key` on lyrics.
final class JSONAPI {
    let process = Process()
    let port: Int

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.root.appendingPathComponent("Tests/Clients/json_api.py").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["JSON_API_KEY": ConnectorTests.key]) {
            $1
        }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        guard let port = Int(readFirstLine(of: out)) else { throw CLIProcessError("json_api.py printed no port") }
        self.port = port
    }

    /// The requests it answered so far, as `path?query`.
    func log() async throws -> [String] {
        let response = try await HTTPClient().get("http://127.0.0.1:\(port)/__log")
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [String]) ?? []
    }

    func reset() async throws { _ = try await HTTPClient().get("http://127.0.0.1:\(port)/__reset") }

    /// While on, every API request answers 503.
    func fail(_ on: Bool) async throws {
        _ = try await HTTPClient().get("http://127.0.0.1:\(port)/__fail?on=\(on ? 1 : 0)")
    }

    /// SIGKILL: a child of the test runner may be started with SIGTERM blocked.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
