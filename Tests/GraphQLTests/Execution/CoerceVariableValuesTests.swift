import Testing

@testable import GraphQL

@Suite struct CoerceVariableValuesTests {
    let schema: Schema
    init() throws { schema = try Harness.schema(concertSDL) }

    func errors(_ query: String, _ variables: String) throws -> String {
        try Harness.run(schema, query, variables: variables)
    }

    @Test func scalarsFollowGraphQLJS() throws {
        let q = "query ($n: Int) { tickets(limit: $n) }"
        #expect(
            try Harness.run(schema, q, data: #"{"tickets": [1]}"#, variables: #"{"n": 3.0}"#)
                == #"{"data":{"tickets":[1]}}"#)
        #expect(
            try errors(q, #"{"n": "5"}"#)
                == #"{"errors":[{"message":"Variable \"$n\" got invalid value \"5\"; Int cannot represent non-integer value: \"5\"","locations":[{"line":1,"column":8}]}]}"#
        )
        #expect(
            try errors(q, #"{"n": 2147483648}"#)
                == #"{"errors":[{"message":"Variable \"$n\" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":8}]}]}"#
        )
    }

    @Test func requiredAndNull() throws {
        let q = "query ($t: Int!) { echo(times: $t) }"
        #expect(
            try errors(q, "{}")
                == #"{"errors":[{"message":"Variable \"$t\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":8}]}]}"#
        )
        #expect(
            try errors(q, #"{"t": null}"#)
                == #"{"errors":[{"message":"Variable \"$t\" of non-null type \"Int!\" must not be null.","locations":[{"line":1,"column":8}]}]}"#
        )
    }

    @Test func inputObjectsEnumsAndListsWithPaths() throws {
        let q = "query ($s: SeatInput) { echo(seat: $s) }"
        #expect(
            try errors(q, #"{"s": {"row": 1, "zones": ["BOX", "ROOF"], "color": 1}}"#)
                == #"{"errors":[{"message":"Variable \"$s\" got invalid value \"ROOF\" at \"s.zones[1]\"; Value \"ROOF\" does not exist in \"Zone\" enum.","locations":[{"line":1,"column":8}]},{"message":"Variable \"$s\" got invalid value { row: 1, zones: [\"BOX\", \"ROOF\"], color: 1 }; Field \"color\" is not defined by type \"SeatInput\".","locations":[{"line":1,"column":8}]}]}"#
        )
        #expect(
            try errors(q, #"{"s": {"number": 2}}"#)
                == #"{"errors":[{"message":"Variable \"$s\" got invalid value { number: 2 }; Field \"row\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":8}]}]}"#
        )
        #expect(
            try errors("query ($z: Zone) { echo(zone: $z) }", #"{"z": "box"}"#)
                == #"{"errors":[{"message":"Variable \"$z\" got invalid value \"box\"; Value \"box\" does not exist in \"Zone\" enum. Did you mean the enum value \"BOX\"?","locations":[{"line":1,"column":8}]}]}"#
        )
    }

    @Test func oneOf() throws {
        let q = "query ($b: Lookup) { pick(by: $b) }"
        #expect(
            try errors(q, #"{"b": {"id": "1", "name": "x"}}"#)
                == #"{"errors":[{"message":"Variable \"$b\" got invalid value { id: \"1\", name: \"x\" }; Exactly one key must be specified for OneOf type \"Lookup\".","locations":[{"line":1,"column":8}]}]}"#
        )
        #expect(
            try errors(q, #"{"b": {"id": null}}"#)
                == #"{"errors":[{"message":"Variable \"$b\" got invalid value null at \"b.id\"; Field \"id\" must be non-null.","locations":[{"line":1,"column":8}]}]}"#
        )
    }

    @Test func coercedValuesReachResolvers() throws {
        let echo = SyncResolver { _, arguments, _ in .json(.string(JSONWriter.string(.object(arguments)))) }
        let resolvers = TableResolvers(table: ["Query.echo": echo])
        let source = Source(
            #"query ($s: SeatInput, $z: [Zone!]) { echo(seat: $s, zone: BOX) other: echo(seat: {row: 2, zones: $z}) }"#)
        let result = executeSynchronously(
            schema: schema, document: try parse(source), source: source,
            variableValues: JSONObject([
                ("s", .object(JSONObject([("zones", .string("BOX")), ("row", .double(4.0))]))), ("z", .string("FLOOR")),
            ]),
            resolvers: resolvers)
        #expect(
            String(decoding: result.serialized(), as: UTF8.self)
                == #"{"data":{"echo":"{\"times\":1,\"zone\":\"BOX\",\"seat\":{\"row\":4,\"number\":1,\"zones\":[\"BOX\"]}}","other":"{\"times\":1,\"seat\":{\"row\":2,\"number\":1,\"zones\":[\"FLOOR\"]}}"}}"#
        )
    }

    @Test func argumentErrorsAreFieldErrorsAtTheArgument() throws {
        // A nullable variable in a non-null position is allowed when the argument has a default;
        // an explicit null then fails at run time.
        let q = "query ($t: Int) { echo(times: $t) }"
        #expect(
            try Harness.run(schema, q, variables: #"{"t": null}"#)
                == #"{"errors":[{"message":"Argument \"times\" of non-null type \"Int!\" must not be null.","locations":[{"line":1,"column":31}],"path":["echo"]}],"data":{"echo":null}}"#
        )
        #expect(try Harness.run(schema, q, data: #"{"echo": "ok"}"#, variables: "{}") == #"{"data":{"echo":"ok"}}"#)
    }
}

@Suite struct VariableDefaultsTests {
    let schema: Schema
    init() throws { schema = try Harness.schema(concertSDL) }

    /// Echoes the coerced arguments, so tests see exactly what resolvers receive.
    func arguments(_ query: String, _ variables: String) throws -> String {
        let echo = SyncResolver { _, arguments, _ in .json(.string(JSONWriter.string(.object(arguments)))) }
        let source = Source(query)
        guard case .object(let values) = try JSONReader.parse(variables) else { return "bad variables" }
        let result = executeSynchronously(
            schema: schema, document: try parse(source), source: source, variableValues: values,
            resolvers: TableResolvers(table: ["Query.echo": echo]))
        return String(decoding: result.serialized(), as: UTF8.self)
    }

    @Test func absentNullAndDefaultStayApart() throws {
        let q = #"query ($t: String = "dflt", $z: Zone) { echo(text: $t, zone: $z) }"#
        #expect(try arguments(q, "{}") == #"{"data":{"echo":"{\"text\":\"dflt\",\"times\":1}"}}"#)
        #expect(
            try arguments(q, #"{"t": null, "z": null}"#)
                == #"{"data":{"echo":"{\"text\":null,\"times\":1,\"zone\":null}"}}"#)
        #expect(
            try arguments(q, #"{"t": "x", "z": "BOX"}"#)
                == #"{"data":{"echo":"{\"text\":\"x\",\"times\":1,\"zone\":\"BOX\"}"}}"#)
    }
}
