import GraphQL
import HTTPClient
import HTTPTypes
import Testing

@testable import GraphQLHTTP

/// Invalid UTF-8 in a request is a 400 whose GraphQL error names the byte and its offset; it
/// never reaches the document (or an upstream) as U+FFFD. Issue 16.
@Suite struct InvalidUTF8EndpointTests {
    @Test func aPercentEncodedInvalidByteInAGETParameterIsA400NamingIt() async throws {
        let test = try TestServer()
        let refused = try await test.get("/graphql?query=%7B%20hello%FF%20%7D")
        #expect(refused.status == 400)
        #expect(
            refused.text
                == #"{"errors":[{"message":"The \"query\" query parameter is not valid UTF-8 once percent-decoded: "#
                + #"byte 0xFF at offset 7 (send text as UTF-8, each byte percent-encoded).","#
                + #""extensions":{"code":"BAD_REQUEST"}}]}"#)
        let variables = try await test.get("/graphql?query=%7B%20hello%20%7D&variables=%7B%22a%22%3A%22%C3%22%7D")
        #expect(variables.status == 400)
        #expect(
            variables.text.contains(
                #"The \"variables\" query parameter is not valid UTF-8 once percent-decoded: byte 0xC3 at offset 6"#))
        // Valid multi-byte text still passes, and the server answers on.
        let valid = try await test.get("/graphql?query=" + urlEncoded(#"{ hello(name: "é東") }"#))
        #expect(valid.status == 200, "\(valid.text)")
        await test.server.shutdown()
    }

    @Test func anInvalidByteInAPOSTBodyIsA400NamingItsOffset() async throws {
        let test = try TestServer()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        let body = Array(#"{"query":"{ hello"#.utf8) + [0xFF] + Array(#" }"}"#.utf8)
        let refused = try await test.client.post(test.base + "/graphql", headers: headers, body: body)
        #expect(refused.status == 400)
        #expect(
            refused.text.contains(
                #""message":"The request body is not valid JSON: invalid UTF-8: byte 0xFF at offset 17 (line 1, column 18).""#
            ))
        #expect(refused.text.contains(#""code":"BAD_REQUEST""#))
        let inVariables =
            Array(#"{"query":"{ hello }","variables":{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8)
        let variables = try await test.client.post(test.base + "/graphql", headers: headers, body: inVariables)
        #expect(variables.status == 400)
        #expect(variables.text.contains("invalid UTF-8: byte 0xED at offset 39"))
        await test.server.shutdown()
    }
}
