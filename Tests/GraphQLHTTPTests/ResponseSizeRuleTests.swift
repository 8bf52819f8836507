import GraphQL
import Testing

@testable import GraphQLHTTP

/// One response-size rule for every answer: `maxResponseBytes` bounds a whole batch as it bounds
/// one answer, and never rewrites a request error.
@Suite struct ResponseSizeRuleTests {
    @Test func aRequestErrorIsNeverRewrittenUnderATinyLimit() async throws {
        let refusal = GraphQLError(
            "The query's estimated cost of 90000 is over the limit of 50000.",
            extensions: JSONObject([("code", .string("QUERY_TOO_COSTLY"))]))
        let test = try TestServer(
            configure: { $0.maxResponseBytes = 30 }, execute: { _, _, _ in .rejected([refusal], status: .badRequest) })
        let response = try await test.post(#"{"query":"{ hello }"}"#, accept: "application/graphql-response+json")
        // Before: 200, data null and RESPONSE_TOO_LARGE in place of the refusal.
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"QUERY_TOO_COSTLY""#), "\(response.text)")
        #expect(!response.text.contains("RESPONSE_TOO_LARGE"))
        await test.server.shutdown()
    }

    @Test func aBatchIsBoundedAsAWhole() async throws {
        let name = String(repeating: "x", count: 1_000)
        let element = #"{"query":"{ hello(name: \"\#(name)\") }"}"#
        let test = try TestServer(configure: { $0.maxResponseBytes = 2_500 })
        // Each answer (about 1,040 bytes) fits alone; the three together do not.
        let response = try await test.post("[" + [element, element, element].joined(separator: ",") + "]")
        #expect(response.status == 200)
        #expect(response.body.count <= 2_500, "\(response.body.count) bytes")
        guard case .array(let answers) = try JSONReader.parse(response.body) else {
            Issue.record("not an array: \(response.text)")
            return
        }
        #expect(answers.count == 3)
        let codes = answers.map { answer -> String? in
            guard case .object(let object) = answer, case .array(let errors)? = object["errors"],
                case .object(let error)? = errors.first, case .object(let extensions)? = error["extensions"],
                case .string(let code)? = extensions["code"]
            else { return nil }
            return code
        }
        #expect(codes.filter { $0 == "RESPONSE_TOO_LARGE" }.count == 1, "\(codes)")
        #expect(codes.filter { $0 == nil }.count == 2)
        await test.server.shutdown()
    }
}
