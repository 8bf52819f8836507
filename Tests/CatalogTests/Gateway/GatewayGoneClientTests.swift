import Foundation
import TestSupport
import Testing

@testable import Catalog

extension LoopbackTests.GatewayProcesses {
    static func youTubeSearches(_ demoURL: String) async throws -> Int {
        try await requestLog(demoURL).filter { $0["path"] as? String == "/youtube/v3/search" }.count
    }

    /// Issue 16, "gone clients": DemoUpstream and the gateway as processes, a client that closes
    /// its connection in the middle of the nested Iron Maiden query. The gateway stops sending
    /// that query's upstream requests (DemoUpstream's count stops growing), another client's
    /// query in flight meanwhile is answered whole, and the gone request is logged and counted
    /// as 499, its log line with the upstream requests it did send (under a request deadline the
    /// line said `upstreamRequests: 0`: the handler logged before the cancelled query returned).
    @Test func aClientThatHangsUpMidQueryStopsItsUpstreamRequests() async throws {
        let demo = try CLIChild(["demo-upstream", "--port", "0", "--latency-ms", "250"])
        defer { demo.stop() }
        let logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("musicgraph-gone-\(UUID().uuidString).txt").path
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let logFile = try #require(FileHandle(forWritingAtPath: logPath))
        let gateway = try CLIChild(
            [
                "serve", "--port", "0", "--upstream", demo.url, "--request-timeout-ms", "600000", "--timeout-ms",
                "600000",
                // Waves of 16 searches: with the default cap all 150 leave before any hang-up.
                "--daily-quota", "youtube=0", "--upstream-concurrency", "16",
            ],
            environment: ["YOUTUBE_API_KEY": "proc-test-key", "MUSICGRAPH_MAX_QUERY_COST": ""], standardError: logFile)
        let port = try #require(Int(gateway.url.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let base = String(gateway.url.dropLast("/graphql".count))

        let body = try String(
            decoding: JSONSerialization.data(withJSONObject: ["query": LoopbackTests.GatewayRequestCounts.ironMaiden]),
            as: UTF8.self)
        // A client that sends the query and closes its socket without reading the answer.
        let leaving = try HeldSocket(port: port)
        leaving.send(
            "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        // Another client, another query, on its own connection.
        let url = gateway.url
        let other = Task { () async throws -> (errors: Bool, albums: Int) in
            let answer = try await Self.post(
                url, query: #"{ artist(name: "AC/DC") { albums { tracks { videos(first: 1) { title } } } } }"#)
            let artist = (answer["data"] as? [String: Any])?["artist"] as? [String: Any]
            return (answer["errors"] != nil, (artist?["albums"] as? [[String: Any]])?.count ?? 0)
        }
        // Hang up once the YouTube searches have begun (artist, albums, songs: 3 × 250 ms before).
        var polls = 0
        while try await Self.youTubeSearches(demo.url) == 0, polls < 1_000 {
            try await Task.sleep(for: .milliseconds(10))
            polls += 1
        }
        leaving.close()
        let answer = try await other.value
        #expect(!answer.errors)
        #expect(answer.albums > 0)
        // The searches on the wire finish; then nothing more is sent for the query that is gone.
        try await Task.sleep(for: .milliseconds(1_000))
        let settled = try await Self.youTubeSearches(demo.url)
        try await Task.sleep(for: .milliseconds(1_000))
        #expect(try await Self.youTubeSearches(demo.url) == settled)
        // Iron Maiden alone needs 150; the other query's videos are AC/DC's.
        let ironMaidenSearches = try await Self.requestLog(demo.url).filter {
            $0["path"] as? String == "/youtube/v3/search" && ($0["query"] as? String ?? "").contains("Iron")
        }.count
        #expect(ironMaidenSearches < 150, "every search was sent: the gone client's query ran to its end")

        let metrics = String(decoding: try await Self.client.get(base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"musicgraph_http_requests_total{path="/graphql",status="499"} 1"#))
        let upstreamTotal = Self.upstreamRequestsTotal(metrics)
        gateway.stop()
        try logFile.close()
        let lines = try Self.logLines(at: logPath)
        let gone = lines.filter { $0["status"] as? Int == 499 }
        #expect(gone.count == 1)
        // Every upstream request is on some log line: the gone query's own are on its 499 line.
        let goneRequests = gone.first?["upstreamRequests"] as? Int ?? 0
        #expect(goneRequests > 0, "the 499 line counts no upstream request")
        // All of them: the artist, its albums, their songs and every search it sent, those on the
        // wire when the client left too (the line counted only the searches answered before).
        #expect(goneRequests == 3 + ironMaidenSearches)
        #expect(lines.compactMap { $0["upstreamRequests"] as? Int }.reduce(0, +) == upstreamTotal)
    }
}
