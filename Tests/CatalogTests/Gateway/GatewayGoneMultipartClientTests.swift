import Foundation
import TestSupport
import Testing

@testable import Catalog

extension LoopbackTests.GatewayProcesses {
    /// The sum of `musicgraph_upstream_requests_total` over its series in a `/metrics` text.
    static func upstreamRequestsTotal(_ metrics: String) -> Int {
        metrics.split(separator: "\n")
            .filter { $0.hasPrefix("musicgraph_upstream_requests_total{") }
            .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
    }

    /// The JSON log lines of the file at `path` (lines that are not JSON objects left out).
    static func logLines(at path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// Issue 18, "a client that disconnects mid-stream ends the execution and its upstream
    /// calls": DemoUpstream (200 ms per request) and the gateway as processes, the nested Iron
    /// Maiden query with each track's videos deferred, asked for as `multipart/mixed`. The client
    /// reads the first part and closes its socket while the video searches go out in waves of 4.
    /// DemoUpstream's count stops growing far below the whole query's 153, the request is logged
    /// and counted as 499, and the gateway answers at once afterwards.
    @Test func aMultipartClientThatLeavesAfterTheFirstPartStopsTheDeferredUpstreamRequests() async throws {
        let demo = try CLIChild(["demo-upstream", "--port", "0", "--latency-ms", "200"])
        defer { demo.stop() }
        let logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("musicgraph-gone-multipart-\(UUID().uuidString).txt").path
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let logFile = try #require(FileHandle(forWritingAtPath: logPath))
        let gateway = try CLIChild(
            [
                "serve", "--port", "0", "--upstream", demo.url, "--request-timeout-ms", "0", "--timeout-ms", "600000",
                // Waves of 4 searches of 200 ms: the 150 would take about 7.5 s.
                "--daily-quota", "youtube=0", "--upstream-concurrency", "4",
            ],
            environment: ["YOUTUBE_API_KEY": "proc-test-key", "MUSICGRAPH_MAX_QUERY_COST": ""], standardError: logFile)
        let port = try #require(Int(gateway.url.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let base = String(gateway.url.dropLast("/graphql".count))

        let body = try String(
            decoding: JSONSerialization.data(
                withJSONObject: ["query": LoopbackTests.GatewayIncremental.ironMaidenDeferred]),
            as: UTF8.self)
        let leaving = try HeldSocket(port: port)
        leaving.send(
            "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Accept: multipart/mixed; incrementalSpec=v0.2\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        // The first part ends with its `"hasNext":true}`; nothing later is read.
        let head = await leaving.readUntil(#""hasNext":true}"#, timeoutMs: 30_000)
        leaving.close()
        // (Booleans, not the part itself: it is 20 KB.) Tracks, no videos; 213 fragments pending.
        let status200 = head.hasPrefix("HTTP/1.1 200")
        let multipart = head.contains(#"multipart/mixed; boundary="-"; incrementalSpec=v0.2"#)
        let pending = head.contains(
            #""id":"212","path":["artist","albums",20,"tracks",7],"label":"videos"}],"hasNext":true}"#)
        let videos = head.contains(#""videos":"#)
        #expect(status200 && multipart && pending && !videos)

        // The searches on the wire finish; then nothing more is sent for the query that is gone.
        try await Task.sleep(for: .milliseconds(1_000))
        let settled = try await Self.requestLog(demo.url).count
        try await Task.sleep(for: .milliseconds(1_000))
        let later = try await Self.requestLog(demo.url).count
        #expect(later == settled, "upstream requests went on after the client left: \(settled) then \(later)")
        // The whole query makes 153 (150 searches); the gone one stopped after a few waves.
        #expect(settled < 60, "\(settled) upstream requests: the gone client's deferred work ran on")

        // The gateway answers at once: /healthz and a query.
        let health = try await Self.client.get(base + "/healthz")
        #expect(health.status == 200)
        let answer = try await Self.post(gateway.url, query: #"{ artist(name: "Iron Maiden") { name } }"#)
        #expect((answer["data"] as? [String: Any])?["artist"] as? [String: Any] != nil)
        #expect(answer["errors"] == nil)

        let metrics = String(decoding: try await Self.client.get(base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"musicgraph_http_requests_total{path="/graphql",status="499"} 1"#))
        let upstreamTotal = Self.upstreamRequestsTotal(metrics)
        gateway.stop()
        try logFile.close()
        let lines = try Self.logLines(at: logPath)
        let gone = lines.filter { $0["status"] as? Int == 499 }
        #expect(gone.count == 1)
        // Every upstream request the gone query made is on its 499 line: the first part's 3
        // (artist, albums, songs) and the searches on the wire when the client left, which may be
        // none when it leaves before they go out (the line said 3 whatever was sent after it).
        // Only this query reaches DemoUpstream: the later artist query is answered from the cache.
        let goneRequests = gone.first?["upstreamRequests"] as? Int ?? 0
        #expect(goneRequests == settled, "the 499 line counts \(goneRequests) of \(settled) upstream requests")
        #expect(lines.compactMap { $0["upstreamRequests"] as? Int }.reduce(0, +) == upstreamTotal)
        print(
            "gone multipart client: \(settled) upstream requests, \(later) a second later, \(goneRequests) on its line")
    }
}
