import GraphQL
import HTTPClient
import HTTPServer
import Synchronization
import Testing

@testable import GraphQLHTTP

/// Operation limits at the endpoint: a document over one is a 400 with the limit's code before
/// anything executes; within them, or with the limit off, it runs.
@Suite struct OperationLimitsEndpointTests {
    /// A request whose document asks for `hello` under `count` aliases.
    private func aliased(_ count: Int) -> String {
        #"{"query":"{ "# + (0..<count).map { "a\($0): hello" }.joined(separator: " ") + #" }"}"#
    }

    /// The executions the endpoint asked for.
    final class Executions: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func tooManyAliasesIsA400WithItsCodeAndNothingRuns() async throws {
        let executions = Executions()
        let test = try TestServer(execute: { document, name, variables in
            executions.count.add(1, ordering: .relaxed)
            return await TestGateway.execute(document, name, variables)
        })
        let refused = try await test.post(aliased(16))
        #expect(refused.status == 422)
        #expect(refused.headers["Content-Type"] == GraphQLEndpointTests.modern)
        #expect(
            refused.text
                == #"{"errors":[{"message":"The anonymous operation has 16 aliases, over the limit of 15.","#
                + #""locations":[{"line":1,"column":1}],"extensions":{"code":"MAX_ALIASES_LIMIT","limit":"MaxAliases","#
                + #""maximum":15,"actual":16}}]}"#)
        #expect(executions.count.load(ordering: .relaxed) == 0)
        let accepted = try await test.post(aliased(15))
        #expect(accepted.status == 200)
        #expect(executions.count.load(ordering: .relaxed) == 1)
        await test.server.shutdown()
    }

    @Test func legacyJSONAnswersTheRefusal200() async throws {
        let test = try TestServer()
        let refused = try await test.post(aliased(16), accept: "application/json")
        #expect(refused.status == 200)
        #expect(refused.text.contains(#""code":"MAX_ALIASES_LIMIT""#))
        await test.server.shutdown()
    }

    @Test func theLimitsAreConfigurableAndZeroIsOff() async throws {
        let off = try TestServer(configure: {
            $0.operationLimits.maxAliases = 0
            $0.operationLimits.maxRootFields = 0
        })
        let response = try await off.post(aliased(40))
        #expect(response.status == 200)
        #expect(response.text.hasPrefix(#"{"data":{"a0":"Hello, world!","#))
        await off.server.shutdown()

        let strict = try TestServer(configure: { $0.operationLimits.maxRootFields = 1 })
        let refused = try await strict.post(#"{"query":"{ hello h: hello }"}"#)
        #expect(refused.status == 422)
        #expect(refused.text.contains(#""code":"MAX_ROOT_FIELDS_LIMIT""#))
        await strict.server.shutdown()
    }

    @Test func introspectionCanBeTurnedOff() async throws {
        let test = try TestServer(configure: { $0.operationLimits.introspection = false })
        let refused = try await test.get("/graphql?query=" + urlEncoded("{ __schema { queryType { name } } }"))
        #expect(refused.status == 422)
        #expect(refused.text.contains(#""code":"INTROSPECTION_DISABLED""#))
        let typename = try await test.get("/graphql?query=" + urlEncoded("{ __typename }"))
        #expect(typename.status == 200)
        #expect(typename.text.hasPrefix(#"{"data":{"__typename":"Query"}"#))
        await test.server.shutdown()
    }

    @Test func sixHundredSchemaAliasesAreRefused() async throws {
        // The issue's 68 KB document: 600 aliased `__schema` selections (9.8 MB answered before).
        let selection = (0..<600).map { "s\($0): __schema { types { name fields { name } } queryType { name } }" }
        let body = #"{"query":"{ "# + selection.joined(separator: " ") + #" }"}"#
        #expect(body.utf8.count > 40_000)
        let test = try TestServer()
        let refused = try await test.post(body)
        #expect(refused.status == 422)
        #expect(refused.text.contains(#""code":"MAX_ALIASES_LIMIT""#))
        #expect(refused.text.contains(#""code":"MAX_ROOT_FIELDS_LIMIT""#))
        #expect(refused.body.count < 1_000)
        await test.server.shutdown()
    }
}
