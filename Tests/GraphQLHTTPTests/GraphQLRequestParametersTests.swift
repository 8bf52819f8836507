import GraphQL
import HTTPServer
import Testing

@testable import GraphQLHTTP

@Suite struct GraphQLRequestParametersTests {
    @Test func readsEveryParameterOfAJSONBody() throws {
        let body =
            #"{"query":"{ a }","operationName":"Op","variables":{"x":1,"y":[true]},"extensions":{"k":"v"},"other":0}"#
        let parameters = try GraphQLRequestParameters.fromJSONBody(Array(body.utf8))
        #expect(parameters.query == "{ a }")
        #expect(parameters.operationName == "Op")
        #expect(parameters.variables == JSONObject([("x", .int(1)), ("y", .array([.bool(true)]))]))
        #expect(parameters.extensions == JSONObject([("k", .string("v"))]))
    }

    @Test(arguments: [
        (#"{"query":"{ a }","extensions":[]}"#, GraphQLRequestParameters.Malformed.extensionsNotObject),
        (#"{"query":"{ a }","variables":"{}"}"#, .variablesNotObject),
        (#""{ a }""#, .bodyNotObject),
        ("null", .bodyNotObject),
        ("{}", .missingQuery),
        (#"{"query":["{ a }"]}"#, .queryNotString),
        (#"{"query":"{ a }","operationName":false}"#, .operationNameNotString),
    ])
    func refusesMalformedBodies(body: String, expected: GraphQLRequestParameters.Malformed) {
        #expect(throws: expected) { try GraphQLRequestParameters.fromJSONBody(Array(body.utf8)) }
    }

    @Test func readsGETParametersFirstOccurrenceWinning() throws {
        let request = HTTPRequest(
            method: "GET", path: "/graphql",
            rawQuery: "query=%7B+a+%7D&query=%7Bb%7D&operationName=Op&variables=%7B%22x%22%3A1%7D&extensions=")
        let parameters = try GraphQLRequestParameters.fromQueryItems(request.queryItems)
        #expect(parameters.query == "{ a }")
        #expect(parameters.operationName == "Op")
        #expect(parameters.variables == JSONObject([("x", .int(1))]))
        #expect(parameters.extensions == JSONObject())
    }

    @Test func getVariablesNullMeansNone() throws {
        let request = HTTPRequest(method: "GET", path: "/graphql", rawQuery: "query=%7Ba%7D&variables=null")
        #expect(try GraphQLRequestParameters.fromQueryItems(request.queryItems).variables == JSONObject())
    }

    @Test func messagesNamePositions() {
        let error: JSONParseError
        do {
            _ = try JSONReader.parse(#"{"query":"#)
            Issue.record("a truncated object parsed")
            return
        } catch let caught {
            error = caught
        }
        #expect(
            GraphQLRequestParameters.Malformed.bodyNotJSON(error).message
                == "The request body is not valid JSON: unexpected end of input, expected a value (line 1, column 10).")
        #expect(
            GraphQLRequestParameters.Malformed.extensionsNotJSON(error).message
                == #"The "extensions" parameter is not valid JSON: unexpected end of input, expected a value."#)
    }
}
