import Foundation
import HTTPClient
import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    /// DemoUpstream bound to a real loopback port, called through the libcurl client.
    @Suite struct DemoUpstreamServerTests {
        @Test func servesOverHTTP() async throws {
            let server = try DemoUpstreamServer(demo: try await Demo.make(), shutdownGraceMs: 50)
            let client = HTTPClient()
            let response = try await client.get(server.baseURL + "/search?term=AC%2FDC&entity=musicArtist&limit=1")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("\n\n\n{\n \"resultCount\":1,"))
            let faults = try await client.post(
                server.baseURL + "/__demo/faults", body: Array(#"{"/3/": {"status": 503}}"#.utf8))
            #expect(faults.status == 200)
            let failing = try await client.get(server.baseURL + "/3/search/movie?query=x&api_key=k")
            #expect(failing.status == 503)
            #expect(failing.tries == 3)
            let log = try await client.get(server.baseURL + "/__demo/requests")
            #expect(String(decoding: log.body, as: UTF8.self).components(separatedBy: #""status":503"#).count == 4)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
            await server.shutdown()
        }
    }
}
