import Testing

@testable import GraphQL

@Suite struct GetOperationTests {
    let schema: Schema
    init() throws { schema = try Harness.schema(concertSDL) }

    @Test func picksTheLoneOrNamedOperation() throws {
        #expect(try Harness.run(schema, "{ count }", data: #"{"count": 1}"#) == #"{"data":{"count":1}}"#)
        let two = "query A { count } query B { __typename }"
        #expect(
            try Harness.run(schema, two, data: #"{"count": 1}"#, operation: "B") == #"{"data":{"__typename":"Query"}}"#)
    }

    @Test func operationSelectionErrorsAreRequestErrors() throws {
        let two = "query A { count } query B { count }"
        #expect(
            try Harness.run(schema, two)
                == #"{"errors":[{"message":"Must provide operation name if query contains multiple operations."}]}"#)
        #expect(
            try Harness.run(schema, two, operation: "C")
                == #"{"errors":[{"message":"Unknown operation named \"C\"."}]}"#)
        #expect(
            try Harness.run(schema, "{ count }", operation: "A")
                == #"{"errors":[{"message":"Unknown operation named \"A\"."}]}"#)
        #expect(
            try Harness.run(schema, "fragment F on Query { count }")
                == #"{"errors":[{"message":"Must provide an operation."}]}"#)
    }

    @Test func onlyTheSelectedOperationsVariablesAreCoerced() throws {
        let doc = "query A($v: Int!) { count } query B { __typename }"
        #expect(try Harness.run(schema, doc, operation: "B") == #"{"data":{"__typename":"Query"}}"#)
    }
}
