import Testing

@testable import GraphQLHTTP

/// `maxResponseBytes` over `multipart/mixed`: the parts' JSON together is bounded (issue 16: an
/// incremental answer bypassed the limit). The executor here has no limit of its own, so what is
/// checked is the HTTP layer's bound on what it writes.
@Suite struct IncrementalResponseSizeEndpointTests {
    static let v02 = "multipart/mixed; incrementalSpec=v0.2"
    static let initial = #"{"data":{"hello":"Hello!"},"pending":[{"id":"0","path":[],"label":"slow"}],"hasNext":true}"#

    @Test func aPartThatWouldCrossTheLimitIsReplacedByALastPartWithTheError() async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: 150)
        let response = try await server.post(IncrementalDeliveryTests.deferred, accept: Self.v02)
        #expect(response.status == 200)
        let parts = try #require(IncrementalDeliveryTests.parts(response.text))
        let actual =
            Self.initial.utf8.count
            + #"{"hasNext":false,"incremental":[{"id":"0","data":{"pause":"paused 20 ms"}}],"completed":[{"id":"0"}]}"#
            .utf8.count
        #expect(
            parts == [
                Self.initial,
                #"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"The response is larger than the limit "#
                    + #"of 150 bytes ("# + "\(actual)"
                    + #" with its next part); it was stopped and the rest of its data "#
                    + #"is not sent. Select fewer fields or smaller lists.","locations":[{"line":1,"column":1}],"#
                    + #""extensions":{"code":"RESPONSE_TOO_LARGE","maximum":150,"actual":"# + "\(actual)" + "}}]}]}",
            ])
        // Logged once, as a 200 (the stream had started), and the server answers the next request.
        let lines = await server.logLines(1)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""status":200"#) == true)
        let next = try await server.post("{ hello }", accept: "application/graphql-response+json")
        #expect(next.text == #"{"data":{"hello":"Hello!"}}"#)
        await server.server.shutdown()
    }

    @Test func aFirstPartOverTheLimitIsOneOrdinaryNullAnswer() async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: 50)
        let response = try await server.post(IncrementalDeliveryTests.deferred, accept: Self.v02)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
        #expect(
            response.text
                == #"{"errors":[{"message":"The response is larger than the limit of 50 bytes ("#
                + "\(Self.initial.utf8.count)"
                + #" with its next part); it was stopped and none of its data is sent. Select fewer fields or smaller "#
                + #"lists.","locations":[{"line":1,"column":1}],"extensions":{"code":"RESPONSE_TOO_LARGE","maximum":50,"#
                + #""actual":"# + "\(Self.initial.utf8.count)" + "}}],\"data\":null}")
        await server.server.shutdown()
    }

    @Test func theOlderFormatNullsWhatWasPending() async throws {
        let server = try IncrementalDeliveryTests.Server(maxResponseBytes: 80)
        let response = try await server.post(
            IncrementalDeliveryTests.deferred, accept: "multipart/mixed; deferSpec=20220824")
        let parts = try #require(IncrementalDeliveryTests.parts(response.text))
        #expect(parts.first == #"{"data":{"hello":"Hello!"},"hasNext":true}"#)
        #expect(parts.count == 2)
        #expect(
            parts.last?.hasPrefix(#"{"hasNext":false,"incremental":[{"data":null,"path":[],"label":"slow","#) == true)
        #expect(parts.last?.contains(#""code":"RESPONSE_TOO_LARGE","maximum":80"#) == true)
        await server.server.shutdown()
    }
}
