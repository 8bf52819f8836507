import Testing

@testable import GraphQL

/// The schema most executor tests run on: every kind of type, non-null and list wrappers.
let concertSDL = """
    type Query {
      venue(id: ID!): Venue
      venues: [Venue!]
      acts: [Act]
      headliner: Act
      tickets(limit: Int = 3, zone: Zone): [Int!]
      echo(text: String, times: Int! = 1, zone: Zone, seat: SeatInput): String
      pick(by: Lookup): String
      count: Int!
    }
    type Mutation { book(seat: Int!): Int  cancel(seat: Int!): Int! }
    interface Named { name: String! }
    type Band implements Named { name: String! members: [String!]! }
    type Solo implements Named { name: String! instrument: Instrument }
    union Act = Band | Solo
    type Venue { id: ID! name: String! capacity: Int rating: Float open: Boolean zones: [Zone] geo: Geo }
    type Geo { lat: Float! lon: Float! }
    enum Zone { FLOOR BALCONY BOX }
    enum Instrument { GUITAR DRUMS }
    input SeatInput { row: Int!, number: Int = 1, zones: [Zone!] }
    input Lookup @oneOf { id: ID, name: String }
    """

@Suite struct ExecutorTests {
    let schema: Schema
    init() throws { schema = try Harness.schema(concertSDL) }

    @Test func resultsFollowSelectionOrderWithAliasesAndMerging() throws {
        let out = try Harness.run(
            schema, "{ venue(id: 1) { b: name id name ... on Venue { capacity b: name } } count }",
            data: #"{"count": 2, "venue": {"capacity": 80, "name": "Hall", "id": 9}}"#)
        #expect(out == #"{"data":{"venue":{"b":"Hall","id":"9","name":"Hall","capacity":80},"count":2}}"#)
    }

    @Test func skipAndIncludeWithLiteralsAndVariables() throws {
        let query = """
            query ($on: Boolean!) {
              count @skip(if: true)
              venues @include(if: $on) { name }
              ... @skip(if: $on) { acts { __typename } }
            }
            """
        let data = #"{"count": 1, "venues": [{"name": "A"}], "acts": []}"#
        #expect(
            try Harness.run(schema, query, data: data, variables: #"{"on": true}"#)
                == #"{"data":{"venues":[{"name":"A"}]}}"#)
        #expect(try Harness.run(schema, query, data: data, variables: #"{"on": false}"#) == #"{"data":{"acts":[]}}"#)
    }

    @Test func fragmentsAreCollectedOncePerSelectionSet() throws {
        let query = """
            { venue(id: 1) { ...V ...V name } }
            fragment V on Venue { id name }
            """
        let out = try Harness.run(schema, query, data: #"{"venue": {"id": "v", "name": "N"}}"#)
        #expect(out == #"{"data":{"venue":{"id":"v","name":"N"}}}"#)
    }

    @Test func abstractTypesResolveFromTypename() throws {
        let query = "{ acts { __typename ... on Named { name } ... on Band { members } ... on Solo { instrument } } }"
        let data = """
            {"acts": [{"__typename": "Band", "name": "B", "members": ["x"]},
                      {"__typename": "Solo", "name": "S", "instrument": "DRUMS"}, null]}
            """
        #expect(
            try Harness.run(schema, query, data: data)
                == #"{"data":{"acts":[{"__typename":"Band","name":"B","members":["x"]},{"__typename":"Solo","name":"S","instrument":"DRUMS"},null]}}"#
        )
    }

    @Test func abstractTypeErrors() throws {
        let cases: [(String, String)] = [
            (
                #"{"headliner": {"name": "x"}}"#,
                #"{"errors":[{"message":"Abstract type \"Act\" must resolve to an Object type at runtime for field \"Query.headliner\". Either the \"Act\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function.","locations":[{"line":1,"column":3}],"path":["headliner"]}],"data":{"headliner":null}}"#
            ),
            (
                #"{"headliner": {"__typename": "Venue"}}"#,
                #"{"errors":[{"message":"Runtime Object type \"Venue\" is not a possible type for \"Act\".","locations":[{"line":1,"column":3}],"path":["headliner"]}],"data":{"headliner":null}}"#
            ),
            (
                #"{"headliner": {"__typename": "Ghost"}}"#,
                #"{"errors":[{"message":"Abstract type \"Act\" was resolved to a type \"Ghost\" that does not exist inside the schema.","locations":[{"line":1,"column":3}],"path":["headliner"]}],"data":{"headliner":null}}"#
            ),
            (
                #"{"headliner": {"__typename": "Named"}}"#,
                #"{"errors":[{"message":"Abstract type \"Act\" was resolved to a non-object type \"Named\".","locations":[{"line":1,"column":3}],"path":["headliner"]}],"data":{"headliner":null}}"#
            ),
        ]
        for (data, expected) in cases {
            #expect(try Harness.run(schema, "{ headliner { __typename } }", data: data) == expected)
        }
    }

    @Test func typenameEverywhereIncludingRoots() throws {
        #expect(try Harness.run(schema, "{ __typename }") == #"{"data":{"__typename":"Query"}}"#)
        #expect(try Harness.run(schema, "mutation { __typename }") == #"{"data":{"__typename":"Mutation"}}"#)
        #expect(
            try Harness.run(schema, "{ venue(id: 1) { __typename } }", data: #"{"venue": {"__typename": "Other"}}"#)
                == #"{"data":{"venue":{"__typename":"Venue"}}}"#)
    }

    @Test func missingRootTypeAnswersDataNull() throws {
        let queryOnly = try Harness.schema("type Query { a: Int }")
        #expect(
            try Harness.run(queryOnly, "mutation M { a }")
                == #"{"errors":[{"message":"Schema is not configured to execute mutation operation.","locations":[{"line":1,"column":1}]}],"data":null}"#
        )
    }

    @Test func unknownKeysAndNonObjectsReadAsNull() throws {
        #expect(
            try Harness.run(schema, "{ venue(id: 1) { capacity geo { lat } } }", data: #"{"venue": "just text"}"#)
                == #"{"data":{"venue":{"capacity":null,"geo":null}}}"#)
    }
}
