import GraphQL
import HTTPClient
import HTTPServer
import Testing

@testable import GraphQLHTTP

/// The GraphQL endpoint over real loopback HTTP: request encodings, media types and the status
/// code of every rule of the GraphQL-over-HTTP draft.
@Suite struct GraphQLEndpointTests {
    static let modern = "application/graphql-response+json; charset=utf-8"
    static let legacy = "application/json; charset=utf-8"

    // MARK: - Successful requests

    @Test func postWithoutAcceptAnswersGraphQLResponseJSON() async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }"}"#)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == Self.modern)
        #expect(response.text == #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    @Test func postSelectsTheOperationAndCoercesVariables() async throws {
        let test = try TestServer()
        let body = #"""
            {"query":"query A { hello } query B($n: String) { hello(name: $n) }","operationName":"B",
             "variables":{"n":"AC/DC"},"extensions":{"persistedQuery":null}}
            """#
        let response = try await test.post(body, accept: "application/json")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == Self.legacy)
        #expect(response.text == #"{"data":{"hello":"Hello, AC/DC!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    @Test func nullOperationNameAndVariablesCountAsAbsent() async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }","operationName":null,"variables":null}"#)
        #expect(response.status == 200)
        #expect(response.text == #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    @Test func getRunsAQueryFromTheURL() async throws {
        let test = try TestServer()
        let query = urlEncoded("query Greet($n: String) { hello(name: $n) }")
        let variables = urlEncoded(#"{"n":"Björk"}"#)
        let response = try await test.get(
            "/graphql?query=\(query)&variables=\(variables)&operationName=Greet", accept: "application/json")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == Self.legacy)
        #expect(response.text == #"{"data":{"hello":"Hello, Björk!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    @Test func getTreatsAnEmptyOperationNameAsAbsent() async throws {
        let test = try TestServer()
        let response = try await test.get("/graphql?query=%7B+hello+%7D&operationName=")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == Self.modern)
        #expect(response.text == #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    @Test func postRunsMutations() async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"mutation { rename(to: \"Ghost\") }"}"#)
        #expect(response.status == 200)
        #expect(response.text == #"{"data":{"rename":"renamed to Ghost"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    // MARK: - Execution results with errors: 294 (partial success), legacy JSON 200

    @Test(arguments: [("application/graphql-response+json", 294), ("application/json", 200)])
    func fieldErrorsAnswerPartialSuccess(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello broken }"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"broken on purpose","locations":[{"line":1,"column":9}],"path":["broken"],"#
                + #""extensions":{"code":"BROKEN"}}],"data":{"hello":"Hello, world!","broken":null},"extensions":{"cost":1}}"#
        )
        await test.server.shutdown()
    }

    /// `data: null` after a non-null root field failed: execution ran (no request error), so
    /// 294 with graphql-response+json, as for any response with data and errors.
    @Test(arguments: [("application/graphql-response+json", 294), ("application/json", 200)])
    func nullDataFromANonNullRootFieldIsAPartialSuccess(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ mandatory }"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"mandatory value unavailable","locations":[{"line":1,"column":3}],"#
                + #""path":["mandatory"]}],"data":null,"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    // MARK: - Request errors: 400 with graphql-response+json, 200 with application/json

    @Test(arguments: [("application/graphql-response+json", 400), ("application/json", 200)])
    func syntaxErrors(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":1,"column":2}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}"#
        )
        await test.server.shutdown()
    }

    @Test func refusedDocumentsCarryTheConfiguredExtensions() async throws {
        let test = try TestServer(configure: {
            $0.refusedDocumentExtensions = { JSONObject([("cost", .object(JSONObject([("estimated", .int(0))])))]) }
        })
        let syntax = try await test.post(#"{"query":"{"}"#, accept: "application/graphql-response+json")
        #expect(syntax.status == 400)
        #expect(
            syntax.text
                == #"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":1,"column":2}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}],"#
                + #""extensions":{"cost":{"estimated":0}}}"#)
        let subscription = try await test.post(#"{"query":"subscription { hello }"}"#, accept: "application/json")
        #expect(subscription.status == 200)
        #expect(subscription.text.hasSuffix(#""extensions":{"cost":{"estimated":0}}}"#))
        await test.server.shutdown()
    }

    @Test(arguments: [("application/graphql-response+json", 422), ("application/json", 200)])
    func validationErrors(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello nope }"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":9}],"#
                + #""extensions":{"rule":"FieldsOnCorrectType","code":"GRAPHQL_VALIDATION_FAILED"}}]}"#)
        await test.server.shutdown()
    }

    @Test(arguments: [("application/graphql-response+json", 422), ("application/json", 200)])
    func unknownOperationNames(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"query A { hello }","operationName":"B"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"Unknown operation named \"B\".","extensions":{"code":"OPERATION_RESOLUTION_FAILURE"}}],"extensions":{"cost":1}}"#
        )
        await test.server.shutdown()
    }

    @Test(arguments: [("application/graphql-response+json", 422), ("application/json", 200)])
    func variableCoercionFailures(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(
            #"{"query":"query ($ms: Int!) { pause(ms: $ms) }","variables":{"ms":"soon"}}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"Variable \"$ms\" got invalid value \"soon\"; Int cannot represent non-integer value: \"soon\"","#
                + #""locations":[{"line":1,"column":8}],"extensions":{"code":"BAD_USER_INPUT"}}],"extensions":{"cost":1}}"#
        )
        await test.server.shutdown()
    }

    @Test(arguments: [("application/graphql-response+json", 400), ("application/json", 200)])
    func rejectionsByTheApplication(accept: String, status: Int) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ costly }"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"Query cost 5000 exceeds the limit of 1000.","extensions":{"code":"COST_LIMIT"}}],"#
                + #""extensions":{"cost":5000}}"#)
        await test.server.shutdown()
    }

    @Test func subscriptionsOverPOSTAreRequestErrors() async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"subscription { ticks }"}"#)
        #expect(response.status == 400)
        #expect(
            response.text
                == #"{"errors":[{"message":"Subscription operations are not supported over HTTP by this server.","extensions":{"code":"BAD_REQUEST"}}]}"#
        )
        await test.server.shutdown()
    }

    // MARK: - Not a well-formed GraphQL-over-HTTP request: 400 with either media type

    @Test(arguments: [
        (
            "NONSENSE",
            #"The request body is not valid JSON: unexpected character 'N', expected a value (line 1, column 1)."#
        ),
        (
            #"{"query":"#,
            #"The request body is not valid JSON: unexpected end of input, expected a value (line 1, column 10)."#
        ),
        (
            "7",
            #"The request body must be a JSON object with a \"query\" string, or an array of such objects (a batch)."#
        ),
        (#"{"qeury":"{ hello }"}"#, #"The request has no \"query\" parameter holding a GraphQL document."#),
        (#"{"query":null}"#, #"The request has no \"query\" parameter holding a GraphQL document."#),
        (#"{"query":7}"#, #"The \"query\" parameter must be a string."#),
        (#"{"query":"{ hello }","variables":[7]}"#, #"The \"variables\" parameter must be a JSON object."#),
        (#"{"query":"{ hello }","operationName":3}"#, #"The \"operationName\" parameter must be a string."#),
        (#"{"query":"{ hello }","extensions":"x"}"#, #"The \"extensions\" parameter must be a JSON object."#),
    ])
    func malformedPOSTBodies(body: String, message: String) async throws {
        let test = try TestServer()
        for accept in ["application/graphql-response+json", "application/json"] {
            let response = try await test.post(body, accept: accept)
            // JSON that does not parse is a 400 either way; parsed JSON that is not a GraphQL
            // request is 422 with graphql-response+json (legacy JSON keeps its 400).
            let unparsed = message.hasPrefix("The request body is not valid JSON")
            #expect(response.status.code == (unparsed || accept == "application/json" ? 400 : 422))
            #expect(response.headers["Content-Type"] == (accept == "application/json" ? Self.legacy : Self.modern))
            #expect(
                response.text == #"{"errors":[{"message":""# + message + #"","extensions":{"code":"BAD_REQUEST"}}]}"#)
        }
        await test.server.shutdown()
    }

    @Test func malformedGETParameters() async throws {
        let test = try TestServer()
        let missing = try await test.get("/graphql?operationName=A", accept: "application/json")
        #expect(missing.status == 400)
        #expect(
            missing.text
                == #"{"errors":[{"message":"The request has no \"query\" parameter holding a GraphQL document.","extensions":{"code":"BAD_REQUEST"}}]}"#
        )
        let badVariables = try await test.get("/graphql?query=%7Bhello%7D&variables=%7Bnope")
        #expect(badVariables.status == 400)
        #expect(
            badVariables.text
                == #"{"errors":[{"message":"The \"variables\" parameter is not valid JSON: unexpected character 'n', expected a string key.","extensions":{"code":"BAD_REQUEST"}}]}"#
        )
        let listVariables = try await test.get("/graphql?query=%7Bhello%7D&variables=%5B1%5D")
        #expect(listVariables.status == 422)  // JSON, but not an object: not a GraphQL request
        #expect(
            listVariables.text
                == #"{"errors":[{"message":"The \"variables\" parameter must be a JSON object.","extensions":{"code":"BAD_REQUEST"}}]}"#
        )
        await test.server.shutdown()
    }

    // MARK: - HTTP-level refusals

    @Test(arguments: ["mutation { rename(to: \"x\") }", "subscription { ticks }"])
    func getRefusesNonQueryOperationsWith405(document: String) async throws {
        let test = try TestServer()
        for accept in ["application/graphql-response+json", "application/json"] {
            let response = try await test.get("/graphql?query=\(urlEncoded(document))", accept: accept)
            #expect(response.status == 405)
            #expect(response.headers["Allow"] == "POST")
            #expect(
                response.text
                    == #"{"errors":[{"message":"GET requests can only run query operations; send this operation with POST.","extensions":{"code":"BAD_REQUEST"}}]}"#
            )
        }
        await test.server.shutdown()
    }

    @Test func getPicksTheNamedOperationBeforeRefusingMutations() async throws {
        let test = try TestServer()
        let document = urlEncoded("query Q { hello } mutation M { rename(to: \"x\") }")
        let query = try await test.get("/graphql?query=\(document)&operationName=Q")
        #expect(query.status == 200)
        let mutation = try await test.get("/graphql?query=\(document)&operationName=M")
        #expect(mutation.status == 405)
        await test.server.shutdown()
    }

    @Test func headIsGETWithoutTheBody() async throws {
        let test = try TestServer()
        let query = urlEncoded("{ hello }")
        let get = try await test.get("/graphql?query=\(query)")
        let head = try await test.request("HEAD", "/graphql?query=\(query)")
        #expect(head.status == 200)
        #expect(head.headers["Content-Type"] == get.headers["Content-Type"])
        #expect(head.headers["Content-Length"] == String(get.body.count))
        #expect(head.body.isEmpty)
        let mutation = try await test.request("HEAD", "/graphql?query=\(urlEncoded("mutation { rename(to: \"x\") }"))")
        #expect(mutation.status == 405)
        await test.server.shutdown()
    }

    @Test func otherMethodsAre405WithAllow() async throws {
        let test = try TestServer()
        let response = try await test.request("PUT", "/graphql")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD, POST, OPTIONS")
        #expect(response.headers["Content-Type"] == Self.legacy)
        #expect(
            response.text
                == #"{"errors":[{"message":"The /graphql endpoint accepts GET, HEAD and POST requests, not PUT.","extensions":{"code":"BAD_REQUEST"}}]}"#
        )
        await test.server.shutdown()
    }

    @Test(arguments: ["text/plain", "image/png, text/*", "application/graphql-response+json;q=0, application/json;q=0"])
    func acceptWithoutAGraphQLTypeIs406(accept: String) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }"}"#, accept: accept)
        #expect(response.status == 406)
        #expect(response.headers["Content-Type"] == Self.legacy)
        #expect(
            response.text
                == #"{"errors":[{"message":"The Accept header allows no media type this endpoint produces; accept "#
                + #"application/graphql-response+json or application/json.","extensions":{"code":"BAD_REQUEST"}}]}"#)
        await test.server.shutdown()
    }

    @Test(arguments: [
        ("*/*", modern), ("application/*", modern), ("application/json, application/graphql-response+json", legacy),
        ("application/graphql-response+json, application/json", modern),
        ("application/json;q=0.9, application/graphql-response+json;q=0.8", legacy),
        ("application/graphql-response+json; charset=utf-8, application/json; charset=utf-8", modern),
        ("application/graphql-response+json; charset=latin1, application/json", legacy),
    ])
    func acceptPicksTheMediaType(accept: String, contentType: String) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }"}"#, accept: accept)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == contentType)
        await test.server.shutdown()
    }

    @Test(arguments: [
        (String?.none, "A POST request needs a Content-Type header; send the request as application/json."),
        ("text/plain", #"Unsupported Content-Type \"text/plain\"; send the request as application/json (UTF-8)."#),
        (
            "application/graphql",
            #"Unsupported Content-Type \"application/graphql\"; send the request as application/json (UTF-8)."#
        ),
        (
            "application/json; charset=iso-8859-1",
            #"Unsupported Content-Type \"application/json; charset=iso-8859-1\"; send the request as application/json (UTF-8)."#
        ),
    ])
    func unsupportedRequestContentTypesAre415(contentType: String?, message: String) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }"}"#, contentType: contentType)
        #expect(response.status == 415)
        #expect(response.text == #"{"errors":[{"message":""# + message + #"","extensions":{"code":"BAD_REQUEST"}}]}"#)
        await test.server.shutdown()
    }

    @Test(arguments: ["application/json; charset=utf-8", "Application/JSON;charset=\"UTF-8\""])
    func jsonWithTheUTF8CharsetIsAccepted(contentType: String) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }"}"#, contentType: contentType)
        #expect(response.status == 200)
        await test.server.shutdown()
    }

    @Test(arguments: [
        ("application/graphql-response+json", "application/graphql-response+json; charset=utf-8"),
        ("application/json", "application/json; charset=utf-8"),
    ])
    func bodiesOverTheLimitAre413GraphQLResponsesLoggedAndCounted(accept: String, contentType: String) async throws {
        let test = try TestServer(configure: { $0.maxBodyBytes = 64 })
        let small = try await test.post(#"{"query":"{ hello }"}"#, accept: accept)
        #expect(small.status == 200)
        let large = try await test.post(
            #"{"query":"{ hello }","padding":""# + String(repeating: "x", count: 64) + #""}"#, accept: accept)
        #expect(large.status == 413)
        // Dropped by HTTPServer unread, answered by the handler in the negotiated media type.
        #expect(large.headers["Content-Type"] == contentType)
        #expect(
            large.text
                == #"{"errors":[{"message":"The request body is larger than 64 bytes.","extensions":{"code":"PAYLOAD_TOO_LARGE"}}]}"#
        )
        let lines = test.log.all
        #expect(lines.count == 2)
        #expect(lines.last?.contains(#""path":"/graphql","client":"anonymous","status":413,"#) == true)
        let metrics = try await test.get("/metrics")
        #expect(metrics.text.contains(#"musicgraph_http_requests_total{path="/graphql",status="413"} 1"#))
        await test.server.shutdown()
    }

    @Test func otherPathsAnswerAnOversizedBodyPlainly() async throws {
        let test = try TestServer(configure: { $0.maxBodyBytes = 10 })
        let health = try await test.post(String(repeating: "x", count: 11), path: "/healthz")
        #expect(health.status == 413)
        #expect(health.text == "request body larger than 10 bytes\n")
        #expect(test.log.all.count == 1)
        await test.server.shutdown()
    }

    @Test func invalidUTF8InTheBodyIsMalformedJSON() async throws {
        let handler = GraphQLHTTPHandler(
            schema: TestGateway.schema, configuration: GraphQLHTTPHandler.Configuration(logSink: { _ in }),
            execute: TestGateway.execute)
        let response = await handler.handle(
            HTTPRequest(
                method: "POST", path: "/graphql", headers: ["Content-Type": "application/json"],
                body: Array(#"{"query":"{ echo(text: \""#.utf8) + [0xFF] + Array(#"\") }"}"#.utf8)))
        #expect(response.status == 400)
        #expect(
            String(decoding: response.body, as: UTF8.self).contains("The request body is not valid JSON: invalid UTF-8")
        )
    }

    @Test func theHandlerRefusesOversizedBodiesAsGraphQLErrorsToo() async throws {
        var configuration = GraphQLHTTPHandler.Configuration(maxBodyBytes: 8, logSink: { _ in })
        configuration.graphiQL = true
        let handler = GraphQLHTTPHandler(
            schema: TestGateway.schema, configuration: configuration, execute: TestGateway.execute)
        let response = await handler.handle(
            HTTPRequest(
                method: "POST", path: "/graphql", headers: ["Content-Type": "application/json"],
                body: Array(#"{"query":"{ hello }"}"#.utf8)))
        #expect(response.status == 413)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"errors":[{"message":"The request body is larger than 8 bytes.","extensions":{"code":"PAYLOAD_TOO_LARGE"}}]}"#
        )
    }

    @Test(arguments: [("application/graphql-response+json", 400), ("application/json", 200)])
    func documentsOverTheTokenLimitAreSyntaxErrors(accept: String, status: Int) async throws {
        let test = try TestServer(configure: { $0.parseOptions = ParseOptions(maxTokens: 5) })
        let fits = try await test.post(#"{"query":"{ hello }"}"#, accept: accept)
        #expect(fits.status == 200)
        let response = try await test.post(#"{"query":"{ hello hello hello hello }"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"Syntax Error: Document contains more than 5 tokens. Parsing aborted.","#
                + #""locations":[{"line":1,"column":27}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}"#)
        await test.server.shutdown()
    }

    @Test func theServerDefaultIsTheServerTokenLimit() {
        let configuration = GraphQLHTTPHandler.Configuration()
        #expect(configuration.parseOptions.maxTokens == 15_000)
        #expect(configuration.path == "/graphql")
        #expect(configuration.maxBodyBytes == 1_048_576)
        #expect(configuration.requestTimeoutMs == 30_000)
    }

    @Test func otherPathsAre404() async throws {
        let test = try TestServer()
        let response = try await test.get("/graphiql")
        #expect(response.status == 404)
        #expect(response.text == "not found; GraphQL is served at /graphql\n")
        // An encoded NUL does not cut the path short: before, these were /graphql and /healthz.
        for path in ["/graphql%00xyz?query=%7B__typename%7D", "/healthz%00.php", "/graphql%2500"] {
            #expect(try await test.get(path).status == 404, "\(path)")
        }
        #expect(try await test.get("/graphql?query=%7Bhello%7D&x=%00").status == 200)
        await test.server.shutdown()
    }

    // MARK: - Deadline

    @Test func executionOverTheDeadlineIsAnswered504() async throws {
        let test = try TestServer(configure: { $0.requestTimeoutMs = 150 })
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await test.post(#"{"query":"{ slowForever }"}"#, accept: "application/json")
        let elapsed = started.duration(to: clock.now)
        #expect(response.status == 504)
        #expect(response.headers["Content-Type"] == Self.legacy)
        #expect(
            response.text
                == #"{"errors":[{"message":"The request did not finish within 150 ms and was cancelled.","#
                + #""extensions":{"code":"REQUEST_TIMEOUT"}}]}"#)
        #expect(elapsed >= .milliseconds(150))
        // Far below the resolver's 6 s, with room for a test run that saturates the thread pool.
        #expect(elapsed < .milliseconds(4_000))
        await test.server.shutdown()
    }

    @Test func upstreamRequestsOfWorkPastTheDeadlineStillCount() async throws {
        let test = try TestServer(
            configure: { $0.requestTimeoutMs = 100 },
            execute: { _, _, _ in
                // Ignores cancellation, as an upstream call in flight may: its requests were made.
                await Task.detached { try? await Task.sleep(for: .milliseconds(300)) }.value
                var report = RequestReport(cacheHits: 1)
                report.recordUpstream(service: "youtube", outcome: "ok", count: 2)
                return .executed(ExecutionResult(data: .object(JSONObject())), report: report)
            })
        let response = try await test.post(#"{"query":"{ hello }"}"#)
        #expect(response.status == 504)
        var metrics = ""
        for _ in 0..<50 where !metrics.contains(#"outcome="ok"} 2"#) {
            try await Task.sleep(for: .milliseconds(50))
            metrics = try await test.get("/metrics").text
        }
        #expect(metrics.contains(#"musicgraph_upstream_requests_total{service="youtube",outcome="ok"} 2"#))
        #expect(metrics.contains("musicgraph_cache_hits_total 1"))
        // Its log line, written once the work returned, counts them too (before: 0 and 0), with
        // the 504's own duration, not the work's 300 ms.
        let lines = test.log.all.filter { $0.contains(#""path":"/graphql""#) }
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.contains(#""status":504"#))
        #expect(line.contains(#""upstreamRequests":2,"cacheHits":1"#), "\(line)")
        let duration = try #require(
            line.split(separator: ",").first { $0.hasPrefix(#""durationMs":"#) }.flatMap {
                Double($0.dropFirst(#""durationMs":"#.count))
            })
        #expect(duration >= 100 && duration < 290, "\(line)")
        await test.server.shutdown()
    }

    /// A client gone before the deadline, whose work outlives the deadline: its 499 line waits
    /// for the work's report (before, the deadline ended the wait and the line said 0).
    @Test func aGoneClientsLineCountsWorkThatOutlivesTheDeadline() async throws {
        let test = try TestServer(
            configure: { $0.requestTimeoutMs = 150 },
            execute: { _, _, _ in
                await Task.detached { try? await Task.sleep(for: .milliseconds(500)) }.value
                var report = RequestReport()
                report.recordUpstream(service: "youtube", outcome: "ok", count: 2)
                return .executed(ExecutionResult(data: .object(JSONObject())), report: report)
            })
        let leaving = HTTPClient(
            configuration: HTTPClient.Configuration(timeoutMs: 40, retry: RetryPolicy(maxTries: 1)))
        await #expect(throws: (any Error).self) {
            try await leaving.post(
                test.base + "/graphql", headers: ["Content-Type": "application/json"],
                body: Array(#"{"query":"{ hello }"}"#.utf8))
        }
        var lines: [String] = []
        for _ in 0..<60 where lines.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            lines = test.log.all.filter { $0.contains(#""path":"/graphql""#) }
        }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(#""status":499"#) == true, "\(lines)")
        #expect(lines.first?.contains(#""upstreamRequests":2"#) == true, "\(lines)")
        await test.server.shutdown()
    }

    @Test func workFinishingWithinTheDeadlineIsAnsweredNormally() async throws {
        let test = try TestServer(configure: { $0.requestTimeoutMs = 5_000 })
        let quick = try await test.post(#"{"query":"{ pause(ms: 10) }"}"#)
        #expect(quick.status == 200)
        #expect(quick.text == #"{"data":{"pause":"paused 10 ms"},"extensions":{"cost":1}}"#)
        #expect(test.server.handler.deadlines.pendingCount == 0)
        await test.server.shutdown()
    }

    @Test func requestIDsAreEchoedOrGenerated() async throws {
        let test = try TestServer()
        let given = try await test.post(#"{"query":"{ hello }"}"#, headers: [("X-Request-Id", "client-42")])
        #expect(given.headers["X-Request-Id"] == "client-42")
        let forged = try await test.post(#"{"query":"{ hello }"}"#, headers: [("X-Request-Id", "a\"b")])
        let generated = try #require(forged.headers["X-Request-Id"])
        #expect(generated.utf8.count == 10)
        #expect(generated.hasSuffix("-1"))
        await test.server.shutdown()
    }
}
