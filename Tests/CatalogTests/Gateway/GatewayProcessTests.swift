import Foundation
import HTTPClient
import TestSupport
import Testing

@testable import Catalog

extension LoopbackTests {
    /// The issue's "Done when": DemoUpstream and the gateway as two separate `musicgraph`
    /// processes, the nested Iron Maiden query sent over HTTP, and DemoUpstream's request log
    /// read back over HTTP.
    @Suite struct GatewayProcesses {
        @Test func serveRefusesToStartOnAMalformedUpstreamURLAZeroTimeoutOrImpossibleLimits() throws {
            for (arguments, reason) in [
                (["serve", "--port", "0", "--upstream", "not a url"], "is not an http(s) URL"),
                (["serve", "--port", "0", "--timeout-ms", "0"], "--timeout-ms must be at least 1"),
                (["serve", "--port", "0", "--cors-origin"], "--cors-origin needs a comma-separated list"),
                (["serve", "--port", "0", "--cors-origin="], "--cors-origin needs a comma-separated list"),
                (["serve", "--port", "0", "--max-connections", "0"], "--max-connections must be at least 1"),
                (
                    ["serve", "--port", "0", "--header-timeout-ms", "soon"],
                    "--header-timeout-ms expects a non-negative"
                ),
                // Far over any machine's hard open-file limit: refused before anything listens.
                (
                    ["serve", "--port", "0", "--max-connections", "1000000000"],
                    "--max-connections 1000000000 needs 1000001024 open files, but the hard limit is"
                ),
                (["serve", "--port", "0", "--daily-quota", "youtube=lots"], "daily quota entry 'youtube=lots'"),
                (
                    ["serve", "--port", "0", "--daily-quota", "youtube=10,vimeo=5"],
                    "daily quota entry 'vimeo=5' names no"
                ),
                (["serve", "--port", "0", "--daily-quota", "tmdb"], "daily quota entry 'tmdb' is not service=units"),
                (
                    ["serve", "--port", "0", "--query-cost-mode", "lenient"],
                    "--query-cost-mode expects enforce or measure"
                ),
            ] {
                let run = try CLI.run(arguments)
                #expect(run.status == 2)
                #expect(run.stderr.contains(reason))
            }
        }

        @Test func queryPrintsRefusedDocumentsWithTheZeroExtensions() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mg-q-\(UUID().uuidString).graphql"
            ).path
            try #"{ artist(name: "AC/DC") { nam } }"#.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            // No upstream is contacted: the document is refused before execution.
            let run = try CLI.run(["query", "--upstream", "http://127.0.0.1:9", path])
            #expect(run.status == 1)
            #expect(run.stdout.hasPrefix(#"{"errors":[{"message":"Cannot query field \"nam\" on type \"Artist\"."#))
            #expect(
                run.stdout.hasSuffix(
                    #""extensions":{"cost":{"estimated":0,"actual":0},"upstream":{"requests":0,"cacheHits":0,"#
                        + #""deduplicated":0},"quota":{"youtube":{"used":0,"limit":10000}}}}"# + "\n"
                ))
        }

        @Test func aSchemaCopyWithHalfTheSearchWeightHalvesThatPartOfTheEstimate() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mg-cost-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let copy = directory.appendingPathComponent("schema.graphql").path
            let edited = GatewaySchema.sdl.replacingOccurrences(
                of: "  ): [Video!]\n    @cost(weight: 100)\n    @costWhen",
                with: "  ): [Video!]\n    @cost(weight: 50)\n    @costWhen")
            #expect(edited != GatewaySchema.sdl)
            try edited.write(toFile: copy, atomically: true, encoding: .utf8)
            let query = directory.appendingPathComponent("q.graphql").path
            try GatewayRequestCounts.ironMaiden.write(toFile: query, atomically: true, encoding: .utf8)
            // A limit of 20,000 refuses the original (37,503) before any upstream call, not the copy.
            func estimated(_ schema: [String], limit: String) throws -> (estimated: Int?, refused: Bool) {
                let text = try CLI.run(["query", "--demo", "--max-query-cost", limit] + schema + [query]).stdout
                let response = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let cost = (response["extensions"] as? [String: Any])?["cost"] as? [String: Any]
                let codes = (response["errors"] as? [[String: Any]] ?? []).compactMap {
                    ($0["extensions"] as? [String: Any])?["code"] as? String
                }
                return (cost?["estimated"] as? Int, codes.contains("QUERY_COST_EXCEEDED"))
            }
            let original = try estimated(["--schema", "schema.graphql"], limit: "1")
            let halved = try estimated(["--schema", copy], limit: "1")
            #expect(original.estimated == 37_503)
            #expect(halved.estimated == 18_753)
            #expect(try estimated(["--schema", "schema.graphql"], limit: "20000").refused)
            #expect(try !estimated(["--schema", copy], limit: "20000").refused)
        }

        @Test func metricsShowTheQuotaLeftAndResponsesTheQuotaUsed() async throws {
            let gateway = try CLIChild(["serve", "--demo", "--port", "0", "--daily-quota", "youtube=1000"])
            defer { gateway.stop() }
            let base = String(gateway.url.dropLast("/graphql".count))
            let answer = try await Self.post(
                gateway.url, query: #"{ videos(query: "Back in Black", first: 1) { title } }"#)
            let quota = (answer["extensions"] as? [String: Any])?["quota"] as? [String: [String: Int]]
            #expect(quota == ["youtube": ["used": 100, "limit": 1_000]])
            let metrics = String(decoding: try await Self.client.get(base + "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"musicgraph_upstream_quota_remaining{service="youtube"} 900"#))
            #expect(metrics.contains("musicgraph_upstream_deduplicated_total 0"))
            #expect(metrics.contains("musicgraph_upstream_in_flight 0"))
        }

        @Test func schemaBuildErrorsNameTheirFileOncePerLine() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mg-bad-\(UUID().uuidString).graphql"
            ).path
            try "type Query { a: Nope }\n".write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            for arguments in [
                ["serve", "--port", "0", "--schema", path], ["exec", "--schema", path, "--data", path, path],
            ] {
                let run = try CLI.run(arguments)
                #expect(run.status == 2)
                #expect(run.stderr.contains("\(path):1:17: Unknown type \"Nope\"."))
                #expect(run.stderr.components(separatedBy: path).count == 2)  // the path appears exactly once
            }
        }

        static let client = HTTPClient(
            configuration: HTTPClient.Configuration(timeoutMs: 600_000, retry: RetryPolicy(maxTries: 1)))

        static func post(_ url: String, query: String) async throws -> [String: Any] {
            let body = try JSONSerialization.data(withJSONObject: ["query": query])
            let response = try await client.post(
                url, headers: ["Content-Type": "application/json"], body: [UInt8](body))
            #expect(response.status == 200)
            return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        }

        static func requestLog(_ demoURL: String) async throws -> [[String: Any]] {
            let response = try await client.get(demoURL + "/__demo/requests")
            return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        }

        @Test func serveLogsEachRequestOnceAndWritesTheLastLinesOnSIGTERM() async throws {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("musicgraph-serve-log-\(UUID().uuidString).txt").path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let logFile = try #require(FileHandle(forWritingAtPath: path))
            // No upstream is ever called: /healthz and a refused document need none.
            let gateway = try CLIChild(
                ["serve", "--port", "0", "--upstream", "http://127.0.0.1:9"], standardError: logFile)
            let base = String(gateway.url.dropLast("/graphql".count))
            for _ in 0..<40 {
                #expect(try await Self.client.get(base + "/healthz").status == 200)
            }
            let refused = try await Self.client.post(
                gateway.url, headers: ["Content-Type": "application/json"], body: Array(#"{"query":"{ nope }"}"#.utf8))
            #expect(refused.status == 422)
            gateway.stop()  // SIGTERM: graceful shutdown flushes the batched log
            try logFile.close()
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("{") }
            // 41 request lines, then the shutdown's own line with what it met.
            #expect(lines.count == 42)
            var entries = try lines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            let shutdown = entries.removeLast()
            #expect(shutdown["event"] as? String == "shutdown")
            #expect(shutdown["signal"] as? Int == Int(SIGTERM))
            #expect(shutdown["finished"] as? Int == 0 && shutdown["refused"] as? Int == 0)
            #expect(
                entries.prefix(40).allSatisfy { $0["path"] as? String == "/healthz" && $0["status"] as? Int == 200 })
            #expect(entries.last?["path"] as? String == "/graphql")
            #expect(entries.last?["status"] as? Int == 422)
            #expect(Set(entries.compactMap { $0["requestId"] as? String }).count == 41)
        }

        @Test func serveKeepsServingWhenItsLogReaderIsGone() async throws {
            let pipe = Pipe()
            let gateway = try CLIChild(
                ["serve", "--port", "0", "--upstream", "http://127.0.0.1:9"], standardError: pipe.fileHandleForWriting)
            try pipe.fileHandleForWriting.close()
            try pipe.fileHandleForReading.close()  // the reader goes away: writes now fail with EPIPE
            let base = String(gateway.url.dropLast("/graphql".count))
            for _ in 0..<3 {
                #expect(try await Self.client.get(base + "/healthz").status == 200)
                try await Task.sleep(for: .milliseconds(30))  // each line's batch is written meanwhile
            }
            gateway.stop()
            // Before SIGPIPE was ignored, the first batch killed the server (signal 13).
            #expect(gateway.process.terminationReason == .exit)
            #expect(gateway.process.terminationStatus == 0)
        }

        @Test func serveWithStandardErrorClosedStartsAndKeepsItsLogOutOfResponses() async throws {
            let gateway = try CLIChild(["serve", "--demo", "--port", "0"], closingStandardError: true)
            #expect(gateway.firstLine.hasPrefix("musicgraph serving http://127.0.0.1:"))
            let base = String(gateway.url.dropLast("/graphql".count))
            for _ in 0..<20 {
                let response = try await Self.client.get(base + "/healthz")
                #expect(response.status == 200)
                #expect(response.body == Array("ok".utf8))
            }
            let answer = try await Self.post(gateway.url, query: #"{ artist(name: "AC/DC") { name } }"#)
            #expect((answer["data"] as? [String: Any])?["artist"] as? [String: String] == ["name": "AC/DC"])
            gateway.stop()
            #expect(gateway.process.terminationReason == .exit)
            #expect(gateway.process.terminationStatus == 0)
        }

        @Test func ironMaidenOverHTTPBetweenTwoProcesses() async throws {
            let demo = try CLIChild(["demo-upstream", "--port", "0"])
            defer { demo.stop() }
            #expect(demo.firstLine.hasPrefix("demo-upstream listening on http://127.0.0.1:"))
            let gateway = try CLIChild(
                [
                    "serve", "--port", "0", "--upstream", demo.url, "--request-timeout-ms", "0", "--timeout-ms",
                    "600000", "--daily-quota", "youtube=0",
                ],
                environment: ["YOUTUBE_API_KEY": "proc-test-key", "MUSICGRAPH_MAX_QUERY_COST": ""])
            defer { gateway.stop() }
            #expect(gateway.firstLine.hasPrefix("musicgraph serving http://127.0.0.1:"))
            #expect(gateway.url.hasSuffix("/graphql"))

            let response = try await Self.post(gateway.url, query: GatewayRequestCounts.ironMaiden)
            #expect(response["errors"] == nil)
            let artist = try #require((response["data"] as? [String: Any])?["artist"] as? [String: Any])
            #expect(artist["name"] as? String == "Iron Maiden")
            let albums = try #require(artist["albums"] as? [[String: Any]])
            #expect(albums.count == 21)
            let tracks = albums.flatMap { $0["tracks"] as? [[String: Any]] ?? [] }
            #expect(tracks.count == 213)
            #expect(tracks.allSatisfy { ($0["videos"] as? [[String: Any]])?.count == 1 })
            let log = try await Self.requestLog(demo.url)
            let paths = log.map { $0["path"] as? String ?? "" }
            #expect(paths.count == 153)
            #expect(paths.filter { $0 == "/search" }.count == 1)
            #expect(paths.filter { $0 == "/lookup" }.count == 2)
            #expect(paths.filter { $0 == "/youtube/v3/search" }.count == 150)
            let upstream = (response["extensions"] as? [String: Any])?["upstream"] as? [String: Any]
            #expect(upstream?["requests"] as? Int == 153)

            let again = try await Self.post(gateway.url, query: GatewayRequestCounts.ironMaiden)
            #expect(try await Self.requestLog(demo.url).count == 153)
            #expect(((again["extensions"] as? [String: Any])?["upstream"] as? [String: Any])?["requests"] as? Int == 0)

            _ = try await Self.post(gateway.url, query: #"{ artist(name: "AC/DC") { name } }"#)
            let afterACDC = try await Self.requestLog(demo.url)
            #expect(afterACDC.count == 154)
            #expect(
                afterACDC.last?["query"] as? String == "term=AC%2FDC&media=music&entity=musicArtist&limit=1&country=US")
        }
    }
}
