import Foundation
import TestSupport
import Testing

extension LoopbackTests.ClientProtocols {
    /// The deferred Iron Maiden query (two albums) over HTTP multipart, read by real multipart
    /// clients (Tests/Clients/multipart_incremental.py): Python's `email` parser (the RFC's
    /// format), requests-toolbelt's MultipartDecoder (Apollo's older format) and `curl -N`, each
    /// against its own cold gateway, beside the ordinary answer of a fourth. 300 ms per upstream
    /// request make the video searches outlast the first part by far.
    @Test func multipartClientsReadTheDeferredVideosAsTheyArrive() throws {
        let demo = try CLIChild(["demo-upstream", "--port", "0", "--latency-ms", "300"])
        defer { demo.stop() }
        let gateways = try (0..<4).map { _ in
            try Gateway(
                ["--upstream", demo.url, "--timeout-ms", "600000", "--daily-quota", "youtube=0"],
                environment: ["YOUTUBE_API_KEY": "test"])
        }
        let (status, figures, errors) = try Self.run(
            ["/usr/bin/python3", Self.clients + "/multipart_incremental.py", demo.url] + gateways.map(\.url))
        let logs = gateways.map { $0.stop() }
        #expect(status == 0, "\(errors)")
        // Deferring changes no upstream request: the same count as the ordinary answer.
        let ordinary = figures["ordinaryUpstreamRequests"] as? Int ?? 0
        #expect(ordinary > 3)
        #expect(figures["emailUpstreamRequests"] as? Int == ordinary)
        #expect(figures["toolbeltUpstreamRequests"] as? Int == ordinary)
        #expect(figures["emailParts"] as? Int ?? 0 >= 2)
        #expect(figures["toolbeltParts"] as? Int ?? 0 >= 2)
        // curl printed the first part (no videos yet) while the searches still waited upstream.
        #expect(figures["curlFirstPartHadVideos"] as? Bool == false)
        let first = figures["curlFirstPartMs"] as? Int ?? 0
        let end = figures["curlEndMs"] as? Int ?? 0
        #expect(end - first >= 250, "first part at \(first) ms, end at \(end) ms")
        // Each streamed answer has its one log line, written when it ended.
        for log in logs.dropFirst() {
            #expect(log.components(separatedBy: #""path":"/graphql","client":"anonymous","status":200"#).count == 2)
        }
    }
}
