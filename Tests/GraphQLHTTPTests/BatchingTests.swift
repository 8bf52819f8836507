import GraphQL
import HTTPClient
import Synchronization
import Testing

@testable import GraphQLHTTP

/// Request batching (GraphQL over HTTP's "Request Batching" appendix) over loopback HTTP.
@Suite struct BatchingTests {
    static let hello = #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#

    @Test(arguments: ["application/graphql-response+json", "application/json"])
    func aBatchIsAnsweredInOrderWithOneResponseEach(accept: String) async throws {
        let test = try TestServer()
        let response = try await test.post(
            #"[{"query":"{ hello }"},{"query":"query ($n: String) { hello(name: $n) }","variables":{"n":"Dio"}},"#
                + #"{"query":"mutation { rename(to: \"Ghost\") }"}]"#, accept: accept)
        #expect(response.status == 200)
        #expect(
            response.headers["Content-Type"]
                == (accept == "application/json" ? GraphQLEndpointTests.legacy : GraphQLEndpointTests.modern))
        #expect(
            response.text
                == "[" + Self.hello + #",{"data":{"hello":"Hello, Dio!"},"extensions":{"cost":1}},"#
                + #"{"data":{"rename":"renamed to Ghost"},"extensions":{"cost":1}}]"#)
        await test.server.shutdown()
    }

    /// Each element is a request of its own: its errors do not touch the others, and the
    /// batch is still answered 200 (the elements' statuses are discarded).
    @Test func badElementsGetTheirOwnErrorsAndTheOthersStillAnswer() async throws {
        let test = try TestServer()
        let unknownHash = SHA256.hexDigest("{ never registered }")
        let response = try await test.post(
            #"[{"query":"{ hello }"},7,{"query":"{ nope }"},{"qeury":"{ hello }"},"#
                + #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(unknownHash)"}}},"#
                + #"{"query":"query ($ms: Int!) { pause(ms: $ms) }","variables":{"ms":"x"}},{"query":"{ broken }"},"#
                + #"{"query":"{ costly }"},{"query":"{ hello }"}]"#)
        #expect(response.status == 200)
        let elements = try #require(JSONReader.parse(response.body).arrayElements)
        #expect(elements.count == 9)
        #expect(JSONWriter.string(elements[0]) == Self.hello)
        #expect(elements[1].code == "BAD_REQUEST")
        #expect(
            elements[1].message
                == #"Batch element 1 is not a GraphQL request: each element must be a JSON object with a "query" string (or a persisted document's id)."#
        )
        #expect(elements[2].code == "GRAPHQL_VALIDATION_FAILED")
        #expect(elements[3].code == "BAD_REQUEST")
        #expect(elements[3].message == #"The request has no "query" parameter holding a GraphQL document."#)
        #expect(elements[4].code == "PERSISTED_QUERY_NOT_FOUND")
        #expect(elements[5].code == "BAD_USER_INPUT")
        #expect(elements[6].code == "BROKEN")  // a field error keeps the application's code
        #expect(elements[7].code == "COST_LIMIT")
        #expect(JSONWriter.string(elements[8]) == Self.hello)
        #expect(response.headers["Cache-Control"] == "no-store")
        await test.server.shutdown()
    }

    @Test func aBatchRegistersAndUsesPersistedQueries() async throws {
        let test = try TestServer()
        let hash = SHA256.hexDigest("{ hello }")
        let apq = #""extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
        let first = try await test.post(#"[{"query":"{ hello }",\#(apq)}]"#)
        #expect(first.text == "[" + Self.hello + "]")
        let second = try await test.post(#"[{\#(apq)},{"documentId":"sha256:\#(hash)"}]"#)
        #expect(second.text == "[" + Self.hello + "," + Self.hello + "]")
        await test.server.shutdown()
    }

    @Test func theWholeBatchIsRefusedWhenEmptyTooLongOrOff() async throws {
        let test = try TestServer(configure: { $0.maxBatchSize = 2 })
        let empty = try await test.post("[]", accept: "application/json")
        #expect(empty.status == 400)
        #expect(
            empty.text
                == #"{"errors":[{"message":"The batch is empty: send a JSON array of one or more GraphQL requests.","#
                + #""extensions":{"code":"BAD_REQUEST"}}]}"#)
        let long = try await test.post(#"[{"query":"{ hello }"},{"query":"{ hello }"},{"query":"{ hello }"}]"#)
        #expect(long.status == 400)
        #expect(
            long.text
                == #"{"errors":[{"message":"The batch holds 3 requests; this server runs at most 2 per batch.","#
                + #""extensions":{"code":"BATCH_LIMIT_EXCEEDED"}}]}"#)
        let broken = try await test.post(#"  [{"query":"{ hello }"},"#)
        #expect(broken.status == 400)
        #expect(broken.text.contains(#""code":"BAD_REQUEST""#))
        await test.server.shutdown()

        let off = try TestServer(configure: { $0.maxBatchSize = 0 })
        let refused = try await off.post(#"[{"query":"{ hello }"}]"#, accept: "application/json")
        #expect(refused.status == 400)
        #expect(
            refused.text
                == #"{"errors":[{"message":"Batching is turned off on this server: send one GraphQL request (a JSON "#
                + #"object) per HTTP request.","extensions":{"code":"BATCHING_NOT_ENABLED"}}]}"#)
        #expect(try await off.post(#"{"query":"{ hello }"}"#).text == Self.hello)
        await off.server.shutdown()
    }

    /// The elements that execute reach the application in one `ExecuteBatch` call, so it can
    /// share work between them; kept results (`executeNow`) are answered without it.
    @Test func theExecutingElementsRunInOneBatchCall() async throws {
        let calls = Mutex<[[String?]]>([])
        let test = try TestServer(
            executeNow: { _, operationName, _ in
                operationName == "Kept"
                    ? .executed(
                        ExecutionResult(data: .object(JSONObject([("kept", .bool(true))]))),
                        report: RequestReport(cacheHits: 3)) : nil
            },
            executeBatch: { requests, _ in
                calls.withLock { $0.append(requests.map(\.operationName)) }
                var outcomes: [GraphQLHTTPOutcome] = []
                for request in requests {
                    outcomes.append(
                        await TestGateway.execute(request.document, request.operationName, request.variables))
                }
                return outcomes
            })
        let document = "query A { hello } query Kept { hello } query B { hello(name: \\\"B\\\") }"
        let response = try await test.post(
            #"[{"query":"\#(document)","operationName":"A"},{"query":"\#(document)","operationName":"Kept"},"#
                + #"{"query":"\#(document)","operationName":"B"}]"#)
        #expect(
            response.text
                == "[" + Self.hello
                + #",{"data":{"kept":true}},{"data":{"hello":"Hello, B!"},"extensions":{"cost":1}}]"#)
        #expect(calls.withLock { $0 } == [["A", "B"]])
        // One HTTP request: one log line, one count, the upstream figures of both executions.
        #expect(test.log.all.count == 1)
        #expect(test.log.all.first?.hasSuffix(#""upstreamRequests":4,"cacheHits":5}"#) == true)
        // A batch of kept results only is answered at once, and still counts what it stands for.
        let kept = try await test.post(#"[{"query":"\#(document)","operationName":"Kept"}]"#)
        #expect(kept.text == #"[{"data":{"kept":true}}]"#)
        #expect(calls.withLock { $0.count } == 1)
        #expect(test.log.all.last?.hasSuffix(#""upstreamRequests":0,"cacheHits":3}"#) == true)
        await test.server.shutdown()
    }

    /// Apollo's BatchHttpLink and gql read one answer per element: past the deadline the batch
    /// is still an array, the element that finished with its data (before: one 504 object).
    @Test func aBatchPastTheDeadlineAnswersEveryElementAtItsIndex() async throws {
        let test = try TestServer(configure: { $0.requestTimeoutMs = 150 })
        let response = try await test.post(
            #"[{"query":"{ hello }"},{"query":"{ slowForever }"},{"query":"{ hello(name: \"C\") }"}]"#)
        #expect(response.status == 200)
        let timedOut =
            #"{"errors":[{"message":"The request did not finish within 150 ms and was cancelled.","#
            + #""extensions":{"code":"REQUEST_TIMEOUT"}}]}"#
        #expect(
            response.text
                == "[" + Self.hello + "," + timedOut + #",{"data":{"hello":"Hello, C!"},"extensions":{"cost":1}}]"#)
        await test.server.shutdown()
    }

    @Test func aBatchIsCacheableForAsLongAsItsLeastFreshElement() async throws {
        let test = try TestServer(execute: { document, operationName, variables in
            var outcome = await TestGateway.execute(document, operationName, variables)
            outcome.maxAgeSeconds = operationName == "Short" ? 30 : 300
            return outcome
        })
        let document = "query Short { hello } query Long { hello }"
        let both = try await test.post(
            #"[{"query":"\#(document)","operationName":"Long"},{"query":"\#(document)","operationName":"Short"}]"#)
        #expect(both.headers["Cache-Control"] == "max-age=30, private")
        let withAnError = try await test.post(
            #"[{"query":"\#(document)","operationName":"Long"},{"query":"{ broken }"}]"#)
        #expect(withAnError.headers["Cache-Control"] == "no-store")
        await test.server.shutdown()
    }
}

extension JSONValue {
    var arrayElements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// `errors[0].extensions.code` of a response.
    var code: String? {
        guard case .object(let response) = self, case .array(let errors)? = response["errors"],
            case .object(let error)? = errors.first, case .object(let extensions)? = error["extensions"],
            case .string(let code)? = extensions["code"]
        else { return nil }
        return code
    }

    /// `errors[0].message` of a response.
    var message: String? {
        guard case .object(let response) = self, case .array(let errors)? = response["errors"],
            case .object(let error)? = errors.first, case .string(let message)? = error["message"]
        else { return nil }
        return message
    }
}
