import Testing
@testable import HTTPServer

@Suite struct HTTPServerSmokeTests {
    @Test func answersARequestFromItsHandler() async throws {
        let server = try HTTPServer { request in
            HTTPResponse(
                status: 200, contentType: "text/plain",
                body: "\(request.method) \(request.path) q=\(request.queryValue("q") ?? "-") ua=\(request.headers["user-agent"] ?? "-")")
        }
        let reply = try await RawHTTPConnection.exchange(
            port: server.port,
            request: "GET /hello%20world?q=a+b%21 HTTP/1.1\r\nHost: x\r\nUser-Agent: raw\r\nConnection: close\r\n\r\n")
        print(reply)
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.hasSuffix("\r\n\r\nGET /hello world q=a b! ua=raw"))
        await server.shutdown()
    }
}
