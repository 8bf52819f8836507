import HTTPServer
import HTTPTypes
import Testing

@testable import HTTPClient

/// GET and POST over loopback: what the server receives and what the client returns.
@Suite struct HTTPClientRequestTests {
    @Test func getSendsHeadersAndQueryAndReturnsTheResponse() async throws {
        let server = try LoopbackServer { request, _ in
            let echo = [
                request.method.rawValue, request.path, request.rawQuery,
                request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "|"),
                request.headers["x-trace-id"] ?? "-", request.headers["ACCEPT"] ?? "-",
            ].joined(separator: "\n")
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "text/plain", "X-Answer": "42"], body: Array(echo.utf8))
        }
        let client = fastRetryClient()
        let response = try await client.get(
            server.url("/search/caf%C3%A9?term=AC%2FDC&limit=5&term=back+in+black&flag"),
            headers: ["X-Trace-Id": "t-1", "Accept": "application/json"])
        #expect(response.status == 200)
        #expect(response.tries == 1)
        #expect(response.headers["x-answer"] == "42")
        #expect(response.headers["CONTENT-TYPE"] == "text/plain")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == "GET\n/search/café\nterm=AC%2FDC&limit=5&term=back+in+black&flag\n"
                + "term=AC/DC|limit=5|term=back in black|flag=\nt-1\napplication/json")
        await server.shutdown()
    }

    /// Response header lines are split at their first colon, the value without the blanks
    /// after it (a colon in the value stays), for ASCII lines and for others.
    @Test func responseHeaderFieldsAreSplitAtTheirFirstColon() async throws {
        let server = try LoopbackServer { _, _ in
            HTTPResponse(
                status: 200,
                headers: [
                    "X-Colon": "a: b:c", "X-Tab": "\tv", "X-Name": "Beyoncé", "Location": "http://h:1/p",
                ])
        }
        let response = try await fastRetryClient().get(server.url("/"))
        #expect(response.headers["x-colon"] == "a: b:c")
        #expect(response.headers["x-tab"] == "v")
        #expect(response.headers["x-name"] == "Beyoncé")
        #expect(response.headers["location"] == "http://h:1/p")
        await server.shutdown()
    }

    @Test func postSendsItsBody() async throws {
        let server = try LoopbackServer { request, _ in
            HTTPResponse(
                status: 201, headers: ["Content-Type": request.headers["content-type"] ?? "-"],
                body: Array("\(request.method) \(request.body.count):".utf8) + request.body)
        }
        let client = fastRetryClient()
        let body = Array(#"{"query":"{ artist(name: \"Queen\") { name } }"}"#.utf8)
        let response = try await client.post(
            server.url("/graphql"), headers: ["Content-Type": "application/json"], body: body)
        #expect(response.status == 201)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.body == Array("POST 48:".utf8) + body)
        await server.shutdown()
    }

    @Test func aLargePostBodyArrivesWhole() async throws {
        let server = try LoopbackServer { request, _ in
            HTTPResponse(
                status: 200, body: Array("\(request.body.count) \(request.body.reduce(0) { $0 &+ Int($1) })".utf8))
        }
        let body = (0..<300_000).map { UInt8($0 % 251) }
        let response = try await fastRetryClient().post(server.url("/upload"), body: body)
        #expect(String(decoding: response.body, as: UTF8.self) == "300000 \(body.reduce(0) { $0 &+ Int($1) })")
        await server.shutdown()
    }

    @Test func nonSuccessStatusesAreResponsesNotErrors() async throws {
        let server = try LoopbackServer { request, _ in
            HTTPResponse(
                status: HTTPStatus(code: Int(request.path.dropFirst()) ?? 500), contentType: "text/plain",
                body: "status")
        }
        let client = fastRetryClient()
        for status in [204, 301, 400, 404, 501] {
            let response = try await client.get(server.url("/\(status)"))
            #expect(response.status.code == status)
            #expect(response.tries == 1)
        }
        #expect(server.requestCount == 5)
        await server.shutdown()
    }

    @Test func headRequestsGetNoBody() async throws {
        let server = try LoopbackServer { request, _ in
            HTTPResponse(status: 200, contentType: "text/plain", body: "only for GET, method was \(request.method)")
        }
        let response = try await fastRetryClient().execute(HTTPClientRequest(method: "HEAD", url: server.url("/")))
        #expect(response.status == 200)
        #expect(response.body == [])
        #expect(response.headers["content-length"] == "29")
        await server.shutdown()
    }

    @Test func gzipBodiesAreAskedForAndDecoded() async throws {
        let server = try LoopbackServer { request, _ in
            HTTPResponse(
                status: 200,
                headers: [
                    "Content-Encoding": "gzip", "X-Accept-Encoding": request.headers["accept-encoding"] ?? "-",
                ],
                body: GzipSamples.helloCompressedWorld)
        }
        let response = try await fastRetryClient().get(server.url("/gz"))
        #expect(String(decoding: response.body, as: UTF8.self) == "hello, compressed world")
        #expect(response.headers["X-Accept-Encoding"]?.contains("gzip") == true)
        await server.shutdown()
    }

    @Test func hundredConcurrentRequestsAllSucceed() async throws {
        let server = try LoopbackServer { request, _ in
            try? await Task.sleep(for: .milliseconds(5))
            return HTTPResponse(status: 200, body: Array(request.queryValue("n").map { "n=\($0)" }?.utf8 ?? "-".utf8))
        }
        let client = fastRetryClient()
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for n in 0..<100 {
                group.addTask {
                    String(decoding: try await client.get(server.url("/item?n=\(n)")).body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies == Set((0..<100).map { "n=\($0)" }))
        #expect(server.requestCount == 100)
        await server.shutdown()
    }
}

/// gzip streams made once with Python's `gzip.compress(…, mtime=0)`.
enum GzipSamples {
    /// "hello, compressed world" (23 bytes).
    static let helloCompressedWorld: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0x48,
        0xce, 0xcf, 0x2d, 0x28, 0x4a, 0x2d, 0x2e, 0x4e, 0x4d, 0x51, 0x28, 0xcf, 0x2f, 0xca, 0x49, 0x01, 0x00, 0x08,
        0x9e, 0x34, 0x35, 0x17, 0x00, 0x00, 0x00,
    ]

    /// 100,000 zero bytes in 132 compressed bytes: small on the wire, large once decoded.
    static let hundredThousandZeros: [UInt8] =
        [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xed, 0xc1, 0x31, 0x01, 0x00, 0x00, 0x00,
            0xc2, 0xa0, 0xf5, 0x4f, 0x6d, 0x0d, 0x0f, 0xa0,
        ] + [UInt8](repeating: 0, count: 96) + [0x80, 0x57, 0x03, 0x7d, 0x95, 0x11, 0xd4, 0xa0, 0x86, 0x01, 0x00]
}
