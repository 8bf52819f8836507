import Testing

@testable import GraphQLHTTP

/// `maxResponseBytes` over `multipart/mixed`: the whole body a client receives, framing and the
/// last part that says why the stream stopped included, stays within the limit. The executor
/// here has no limit of its own, so what is checked is the HTTP layer's bound on what it writes.
@Suite struct IncrementalResponseSizeEndpointTests {
    static let v02 = "multipart/mixed; incrementalSpec=v0.2"
    static let initial = #"{"data":{"hello":"Hello!"},"pending":[{"id":"0","path":[],"label":"slow"}],"hasNext":true}"#
    /// A deferred part of about 600 bytes after a first part of about 150 (12 aliases: the
    /// default operation limits allow 15).
    static let large =
        #"{ hello ... @defer(label: "slow") { "#
        + (1...12).map { "aFieldWithAVeryLongAliasNumber\($0): pause(ms: 1)" }.joined(separator: " ") + " } }"

    @Test func aLaterPartThatWouldCrossTheLimitIsReplacedByALastPartWithTheError() async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: 700)
        let response = try await server.post(Self.large, accept: Self.v02)
        #expect(response.status == 200)
        #expect(response.body.count <= 700, "\(response.body.count) bytes")
        let parts = try #require(IncrementalDeliveryTests.parts(response.text))
        #expect(parts.count == 2)
        #expect(parts.first == Self.initial)
        #expect(parts.last?.hasPrefix(#"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"#) == true)
        #expect(parts.last?.contains("it was stopped and the rest of its data is not sent") == true)
        #expect(parts.last?.contains(#""code":"RESPONSE_TOO_LARGE","maximum":700"#) == true)
        // Logged once, as a 200 (the stream had started), and the server answers the next request.
        let lines = await server.logLines(1)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""status":200"#) == true)
        let next = try await server.post("{ hello }", accept: "application/graphql-response+json")
        #expect(next.text == #"{"data":{"hello":"Hello!"}}"#)
        await server.server.shutdown()
    }

    /// Before: the parts' JSON was bounded, not their framing nor the last part, so that a
    /// limit of 3,000 bytes gave a 7,697-byte stream.
    @Test(arguments: [300, 500, 650, 700, 800, 900, 1_200, 2_000])
    func theWholeStreamStaysWithinTheLimit(limit: Int) async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: limit)
        let response = try await server.post(Self.large, accept: Self.v02)
        if IncrementalDeliveryTests.parts(response.text) != nil {
            #expect(response.status == 200)
            #expect(response.body.count <= limit, "\(response.body.count) bytes under a limit of \(limit)")
        } else {
            // Not even the first part fits beside a last part: one ordinary answer, no data
            // (with an error: a partial success).
            #expect(response.status == 294)
            #expect(response.text.contains(#""code":"RESPONSE_TOO_LARGE""#), "\(response.text)")
            #expect(response.text.hasSuffix(#""data":null}"#))
        }
        await server.server.shutdown()
    }

    @Test func aFirstPartOverTheLimitIsOneOrdinaryNullAnswer() async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: 50)
        let response = try await server.post(IncrementalDeliveryTests.deferred, accept: Self.v02)
        #expect(response.status == 294)
        #expect(response.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
        let framed = IncrementalDeliveryTests.partHead.utf8.count + Self.initial.utf8.count
        #expect(
            response.text
                == #"{"errors":[{"message":"The response is larger than the limit of 50 bytes ("# + "\(framed)"
                + #" with its next part); it was stopped and none of its data is sent. Select fewer fields or smaller "#
                + #"lists.","locations":[{"line":1,"column":1}],"extensions":{"code":"RESPONSE_TOO_LARGE","maximum":50,"#
                + #""actual":"# + "\(framed)" + "}}],\"data\":null}")
        await server.server.shutdown()
    }

    @Test func theOlderFormatNullsWhatWasPending() async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: 700)
        let response = try await server.post(Self.large, accept: "multipart/mixed; deferSpec=20220824")
        #expect(response.body.count <= 700, "\(response.body.count) bytes")
        let parts = try #require(IncrementalDeliveryTests.parts(response.text))
        #expect(parts.first == #"{"data":{"hello":"Hello!"},"hasNext":true}"#)
        #expect(parts.count == 2)
        #expect(
            parts.last?.hasPrefix(#"{"hasNext":false,"incremental":[{"data":null,"path":[],"label":"slow","#) == true)
        #expect(parts.last?.contains(#""code":"RESPONSE_TOO_LARGE","maximum":700"#) == true)
        await server.server.shutdown()
    }
}
