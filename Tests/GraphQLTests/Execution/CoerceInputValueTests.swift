import Testing

@testable import GraphQL

/// `InputCoercion` (graphql-js `coerceInputValue`) on variable values: the value each input
/// type makes of a JSON value, and every problem with its path inside the value and
/// graphql-js's message, also as `coerceVariableValues` words them for the response.
@Suite struct CoerceInputValueTests {
    static let sdl = """
        type Query { f(a: Int): Int }
        scalar JSON
        enum Color { RED GREEN BLUE }
        input Point { x: Float!, y: Float = 0.5, tags: [String!], color: Color }
        input Pick @oneOf { id: ID, name: String }
        """

    let schema: Schema
    init() throws { schema = try buildSchema(sdl: Self.sdl) }

    /// What `json` coerces to as `type`, and each problem as `path | value | message` (no path at the top).
    func coerce(_ json: JSONValue, _ type: String) throws -> (value: JSONValue, problems: [String]) {
        var problems: [String] = []
        let coercion = InputCoercion(schema: schema) { path, value, message in
            let at = path.map {
                switch $0 {
                case .key(let key): key
                case .index(let index): String(index)
                }
            }
            problems.append((at.isEmpty ? "" : at.joined(separator: ".") + " ") + "| \(inspect(value)) | \(message)")
        }
        let value = coercion.coerce(json, to: typeReference(try parseType(Source(type))))
        return (value, problems)
    }

    /// `coerce` of JSON text.
    func coerce(_ json: String, _ type: String) throws -> (value: JSONValue, problems: [String]) {
        try coerce(try JSONReader.parse(json), type)
    }

    /// The messages `coerceVariableValues` reports for `$v: type` given `variables` (JSON text),
    /// or the coerced variables as JSON text.
    func variables(_ type: String, _ variables: String) throws -> [String] {
        let source = Source("query ($v: \(type)) { f }")
        let document = try parse(source)
        guard case .operation(let operation) = document.definitions[0],
            case .object(let inputs) = try JSONReader.parse(variables)
        else { throw CoercionMessage("no operation") }
        switch coerceVariableValues(schema: schema, operation: operation, inputs: inputs, source: source) {
        case .success(let values): return [JSONWriter.string(.object(values))]
        case .failure(let failure): return failure.errors.map(\.message)
        }
    }

    @Test func intFromIntegralNumbersInThirtyTwoBits() throws {
        #expect(try coerce("7", "Int") == (.int(7), []))
        #expect(try coerce("7.0", "Int") == (.int(7), []))
        #expect(try coerce("-2147483648", "Int") == (.int(-2_147_483_648), []))
        #expect(
            try coerce("2147483648.0", "Int").problems
                == ["| 2147483648 | Int cannot represent non 32-bit signed integer value: 2147483648"])
        #expect(
            try coerce("-2147483649", "Int").problems
                == ["| -2147483649 | Int cannot represent non 32-bit signed integer value: -2147483649"])
        #expect(try coerce("7.5", "Int").problems == ["| 7.5 | Int cannot represent non-integer value: 7.5"])
        #expect(
            try coerce("1e400", "Int").problems == ["| Infinity | Int cannot represent non-integer value: Infinity"])
        #expect(try coerce("true", "Int").problems == ["| true | Int cannot represent non-integer value: true"])
        #expect(try coerce("[7]", "Int").problems == ["| [7] | Int cannot represent non-integer value: [7]"])
        #expect(try coerce("7", "Int").value == .int(7))
    }

    @Test func floatFromAnyFiniteNumber() throws {
        // An integer is a Float: Int → Float, as a double.
        #expect(try coerce("3", "Float") == (.double(3), []))
        #expect(try coerce("-9007199254740993", "Float") == (.double(-9_007_199_254_740_992), []))
        #expect(try coerce("2.5e-3", "Float") == (.double(0.0025), []))
        #expect(try coerce("[1, 2.5]", "[Float!]") == (.array([.double(1), .double(2.5)]), []))
        // Out of Double's range JSON.parse reads Infinity, which is no Float (§3.5.2).
        #expect(
            try coerce("1e400", "Float").problems == ["| Infinity | Float cannot represent non numeric value: Infinity"]
        )
        #expect(
            try coerce("-1e400", "Float").problems
                == ["| -Infinity | Float cannot represent non numeric value: -Infinity"])
        #expect(
            try coerce(.double(.nan), "Float").problems == ["| NaN | Float cannot represent non numeric value: NaN"])
        #expect(
            try coerce(#""1.5""#, "Float").problems == [#"| "1.5" | Float cannot represent non numeric value: "1.5""#])
        #expect(try coerce("false", "Float").problems == ["| false | Float cannot represent non numeric value: false"])
        #expect(try coerce("{}", "Float").problems == ["| {} | Float cannot represent non numeric value: {}"])
    }

    @Test func stringBooleanAndID() throws {
        #expect(try coerce(#""x""#, "String") == (.string("x"), []))
        #expect(try coerce("1", "String").problems == ["| 1 | String cannot represent a non string value: 1"])
        #expect(
            try coerce(#"{"a": [1, 2]}"#, "String").problems
                == ["| { a: [1, 2] } | String cannot represent a non string value: { a: [1, 2] }"])
        #expect(try coerce("false", "Boolean") == (.bool(false), []))
        #expect(try coerce("0", "Boolean").problems == ["| 0 | Boolean cannot represent a non boolean value: 0"])
        #expect(
            try coerce(#""true""#, "Boolean").problems
                == [#"| "true" | Boolean cannot represent a non boolean value: "true""#])
        #expect(try coerce(#""a""#, "ID") == (.string("a"), []))
        #expect(try coerce("12", "ID") == (.string("12"), []))
        #expect(try coerce("12.0", "ID") == (.string("12"), []))
        #expect(try coerce("1e21", "ID") == (.string("1e+21"), []))
        #expect(try coerce("1.5", "ID").problems == ["| 1.5 | ID cannot represent value: 1.5"])
        #expect(try coerce("true", "ID").problems == ["| true | ID cannot represent value: true"])
        #expect(try coerce("[]", "ID").problems == ["| [] | ID cannot represent value: []"])
    }

    @Test func enumsAndCustomScalars() throws {
        #expect(try coerce(#""RED""#, "Color") == (.string("RED"), []))
        #expect(
            try coerce(#""red""#, "Color").problems
                == [#"| "red" | Value "red" does not exist in "Color" enum. Did you mean the enum value "RED"?"#])
        #expect(
            try coerce(#""PINK""#, "Color").problems == [#"| "PINK" | Value "PINK" does not exist in "Color" enum."#])
        #expect(try coerce("1", "Color").problems == [#"| 1 | Enum "Color" cannot represent non-string value: 1."#])
        #expect(
            try coerce(#"["RED"]"#, "Color").problems
                == [#"| ["RED"] | Enum "Color" cannot represent non-string value: ["RED"]."#])
        // Suggestions come from the inspected value, as graphql-js makes them.
        #expect(
            try coerce("true", "Color").problems
                == [
                    #"| true | Enum "Color" cannot represent non-string value: true. Did you mean the enum value "BLUE"?"#
                ])
        let any = try JSONReader.parse(#"{"a": [1, 2.5, null, "s"], "b": true}"#)
        #expect(try coerce(any, "JSON") == (any, []))
        #expect(try coerce("null", "JSON") == (.null, []))
    }

    @Test func nullsListsAndNonNull() throws {
        #expect(try coerce("null", "Int") == (.null, []))
        #expect(try coerce("null", "[Int]") == (.null, []))
        #expect(try coerce("null", "Int!").problems == [#"| null | Expected non-nullable type "Int!" not to be null."#])
        #expect(try coerce("5", "[Int]") == (.array([.int(5)]), []))
        #expect(try coerce("[1, null]", "[Int]") == (.array([.int(1), .null]), []))
        #expect(
            try coerce("[1, null, 3]", "[Int!]!")
                == (
                    .array([.int(1), .null, .int(3)]),
                    [#"1 | null | Expected non-nullable type "Int!" not to be null."#]
                ))
        #expect(
            try coerce(#"[[1], [2, "x"], 3]"#, "[[Int]]")
                == (
                    .array([.array([.int(1)]), .array([.int(2), .null]), .array([.int(3)])]),
                    [#"1.1 | "x" | Int cannot represent non-integer value: "x""#]
                ))
    }

    @Test func inputObjectsReportEveryProblemWithItsPath() throws {
        #expect(
            try coerce(#"{"tags": ["a"], "x": 1}"#, "Point")
                == (
                    .object(JSONObject([("x", .double(1)), ("y", .double(0.5)), ("tags", .array([.string("a")]))])),
                    []
                ))
        let (value, problems) = try coerce(
            #"{"x": "1", "tags": ["a", 2, null], "color": "GREN", "colour": 1}"#, "Point")
        #expect(
            value
                == .object(
                    JSONObject([
                        ("x", .null), ("y", .double(0.5)), ("tags", .array([.string("a"), .null, .null])),
                        ("color", .null),
                    ])))
        #expect(
            problems == [
                #"x | "1" | Float cannot represent non numeric value: "1""#,
                "tags.1 | 2 | String cannot represent a non string value: 2",
                #"tags.2 | null | Expected non-nullable type "String!" not to be null."#,
                #"color | "GREN" | Value "GREN" does not exist in "Color" enum. Did you mean the enum value "GREEN" or "RED"?"#,
                #"| { x: "1", tags: ["a", 2, null], color: "GREN", colour: 1 } | Field "colour" is not defined by type "Point". Did you mean "color"?"#,
            ])
        #expect(
            try coerce(#"{"y": 1}"#, "Point").problems
                == [#"| { y: 1 } | Field "x" of required type "Float!" was not provided."#])
        #expect(try coerce("[]", "Point").problems == [#"| [] | Expected type "Point" to be an object."#])
        #expect(try coerce("1", "[Point]").problems == [#"| 1 | Expected type "Point" to be an object."#])
    }

    @Test func oneOf() throws {
        #expect(try coerce(#"{"id": 3}"#, "Pick") == (.object(JSONObject([("id", .string("3"))])), []))
        #expect(
            try coerce(#"{"id": null}"#, "Pick").problems == [#"id | null | Field "id" must be non-null."#])
        #expect(
            try coerce("{}", "Pick").problems == [#"| {} | Exactly one key must be specified for OneOf type "Pick"."#])
    }

    @Test func typesThatAreNoInputTypes() throws {
        #expect(try coerce("1", "Query").problems == [#"| 1 | Expected type "Query" to be an input type."#])
        #expect(try coerce("1", "Nowhere").problems == [#"| 1 | Expected type "Nowhere" to be an input type."#])
    }

    /// The same problems as the response words them: graphql-js `getVariableValues`.
    @Test func wrongTypeVariablesNameTheVariableAndThePath() throws {
        #expect(
            try variables("[Float]", #"{"v": [1, "2", 1e400]}"#) == [
                #"Variable "$v" got invalid value "2" at "v[1]"; Float cannot represent non numeric value: "2""#,
                #"Variable "$v" got invalid value Infinity at "v[2]"; Float cannot represent non numeric value: Infinity"#,
            ])
        #expect(
            try variables("Point", #"{"v": {"x": 1, "tags": [["a"]]}}"#) == [
                #"Variable "$v" got invalid value ["a"] at "v.tags[0]"; String cannot represent a non string value: ["a"]"#
            ])
        #expect(
            try variables("Int", #"{"v": {"a": {"b": {"c": 1}}, "l": [1,2,3,4,5,6,7,8,9,10,11,12]}}"#) == [
                #"Variable "$v" got invalid value { a: { b: [Object] }, l: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ... 2 more items] }; Int cannot represent non-integer value: { a: { b: [Object] }, l: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ... 2 more items] }"#
            ])
        #expect(
            try variables("[[Int]]", #"{"v": [[[1]]]}"#) == [
                #"Variable "$v" got invalid value [1] at "v[0][0]"; Int cannot represent non-integer value: [1]"#
            ])
        #expect(
            try variables("Query", #"{"v": 1}"#) == [
                #"Variable "$v" expected value of type "Query" which cannot be used as an input type."#
            ])
        // Int → Float, and the values coerced when nothing is wrong.
        #expect(try variables("[Float!]!", #"{"v": [1, 2.5]}"#) == [#"{"v":[1,2.5]}"#])
        #expect(try variables("Float", #"{"v": 4}"#) == [#"{"v":4}"#])
        #expect(try variables("Float = 1.5", "{}") == [#"{"v":1.5}"#])
        #expect(try variables("Float", "{}") == ["{}"])
    }
}
