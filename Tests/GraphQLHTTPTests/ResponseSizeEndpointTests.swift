import GraphQL
import HTTPClient
import Testing

@testable import GraphQLHTTP

/// `maxResponseBytes` at the endpoint, over a real server: a body over the limit is replaced by
/// one well-formed GraphQL error.
@Suite struct ResponseSizeEndpointTests {
    /// Two operations; `Long` (on line 2) answers about 330 bytes.
    static let twoOperations =
        #"{"query":"query Short { hello }\nquery Long { hello(name: \""#
        + String(repeating: "x", count: 300) + #"\") }","operationName":"Long"}"#

    /// Issue 16: with a tiny limit the HTTP layer's replacement had no `locations`; it now has the
    /// operation's (line 2 here, the executor's own `RESPONSE_TOO_LARGE` has them too) and no
    /// `path` (the whole body crossed the limit, not a field), and is a 200 for both media types:
    /// `data` is null after execution: a partial success (294), 200 with legacy JSON.
    @Test func aBodyOverTheLimitIsOneLocatedErrorAnsweredAsAPartialSuccess() async throws {
        let test = try TestServer(configure: { $0.maxResponseBytes = 100 })
        let modern = try await test.post(Self.twoOperations)
        #expect(modern.status == 294)
        #expect(modern.headers["Content-Type"] == GraphQLEndpointTests.modern)
        let actual = #"{"data":{"hello":"Hello, "#.utf8.count + 300 + #"!"},"extensions":{"cost":1}}"#.utf8.count
        #expect(
            modern.text
                == #"{"errors":[{"message":"The response is larger than the limit of 100 bytes ("# + "\(actual)"
                + #"); none of its data is sent. Select fewer fields or smaller lists.","locations":[{"line":2,"column":1}],"#
                + #""extensions":{"code":"RESPONSE_TOO_LARGE","maximum":100,"actual":"# + "\(actual)"
                + #"}}],"data":null,"extensions":{"cost":1}}"#)
        let legacy = try await test.post(Self.twoOperations, accept: "application/json")
        #expect(legacy.status == 200)
        #expect(legacy.text == modern.text)
        // Within the limit, the same server answers in full.
        let short = try await test.post(
            #"{"query":"query Short { hello }\nquery Long { hello }","operationName":"Short"}"#)
        #expect(short.text == #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }
}
