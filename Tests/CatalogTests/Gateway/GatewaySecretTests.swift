import Foundation
import HTTPClient
import TestSupport
import Testing

extension LoopbackTests.GatewayProcesses {
    /// Canary keys with `" / \ + = %` in them, given to `serve` through its environment, with
    /// DemoUpstream (a separate process) echoing credentials back in its error bodies: no form of
    /// any canary (`CanaryForms`) may appear in a response, an error, the request log or /metrics.
    @Test func canaryKeysInEveryEncodingNeverLeaveTheGateway() async throws {
        let canaries = [
            "YOUTUBE_API_KEY": #"canaryYT"12/3\4+5=6%7"#, "TMDB_API_KEY": #"canaryTMDB"8/9\0+1=2%3"#,
            "APPLE_MUSIC_TOKEN": #"canaryAPPLE"789/\+=%"#, "RAKUTEN_APP_ID": #"canaryRK"45/6\7+8=9%0"#,
        ]
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("musicgraph-canary-log-\(UUID().uuidString).txt").path
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let logFile = try #require(FileHandle(forWritingAtPath: logPath))
        let gateway = try CLIChild(
            ["serve", "--port", "0", "--upstream", demo.url, "--no-result-cache"], environment: canaries,
            standardError: logFile)
        let base = String(gateway.url.dropLast("/graphql".count))
        let query = """
            { artist(name: "AC/DC") { albums(first: 1) { tracks { videos(first: 1) { title } } } }
              a: artists(name: "AC/DC", source: APPLE_MUSIC) { name }
              r: albums(term: "Rock", source: RAKUTEN, first: 1) { title } }
            """
        var texts: [String] = []
        for fault in [
            #"{"/": {"echo": true}}"#, #"{"/": {"echo": true, "status": 500}}"#,
            #"{"/": {"echo": true, "status": 401}}"#,
            #"{"/": {"status": 500}}"#, "{}",
        ] {
            _ = try await Self.client.post(
                demo.url + "/__demo/faults", headers: ["Content-Type": "application/json"], body: Array(fault.utf8))
            for query in [query, "{ movies(query: \"Rock\") { title } }", "{ videos(query: \"AC/DC\") { title } }"] {
                let body = try JSONSerialization.data(withJSONObject: ["query": query])
                let response = try await Self.client.post(
                    gateway.url, headers: ["Content-Type": "application/json"], body: [UInt8](body))
                texts.append(String(decoding: response.body, as: UTF8.self))
            }
        }
        texts.append(String(decoding: try await Self.client.get(base + "/metrics").body, as: UTF8.self))
        gateway.stop()
        try logFile.close()
        texts.append(try String(contentsOfFile: logPath, encoding: .utf8))
        // The echo did reach the gateway's errors, masked.
        #expect(texts.contains { $0.contains("rejected: authorization=Bearer ***") })
        #expect(texts.contains { $0.contains("key=***") })
        for text in texts {
            #expect(CanaryForms.leaks(of: Array(canaries.values), in: text).isEmpty, "leaked in: \(text.prefix(2_000))")
        }
    }
}
