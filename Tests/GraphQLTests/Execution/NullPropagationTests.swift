import Testing

@testable import GraphQL

@Suite struct NullPropagationTests {
    let schema: Schema
    init() throws { schema = try Harness.schema(concertSDL) }

    @Test func nonNullFieldNullsItsParent() throws {
        let out = try Harness.run(
            schema, "{ venue(id: 1) { capacity name } count }", data: #"{"venue": {"capacity": 5}, "count": 3}"#)
        #expect(
            out
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Venue.name.","locations":[{"line":1,"column":27}],"path":["venue","name"]}],"data":{"venue":null,"count":3}}"#
        )
    }

    @Test func nonNullListItemsNullTheListAndPathsCarryIndices() throws {
        let out = try Harness.run(
            schema, "{ venues { name } }", data: #"{"venues": [{"name": "a"}, {"name": null}]}"#)
        #expect(
            out
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Venue.name.","locations":[{"line":1,"column":12}],"path":["venues",1,"name"]}],"data":{"venues":null}}"#
        )
        let items = try Harness.run(schema, "{ tickets }", data: #"{"tickets": [1, null]}"#)
        #expect(
            items
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.tickets.","locations":[{"line":1,"column":3}],"path":["tickets",1]}],"data":{"tickets":null}}"#
        )
    }

    @Test func nullableListItemsAbsorbTheirErrors() throws {
        let out = try Harness.run(
            schema, "{ venue(id: 1) { zones } }", data: #"{"venue": {"zones": ["BOX", "ROOF", null]}}"#)
        #expect(
            out
                == #"{"errors":[{"message":"Enum \"Zone\" cannot represent value: \"ROOF\"","locations":[{"line":1,"column":18}],"path":["venue","zones",1]}],"data":{"venue":{"zones":["BOX",null,null]}}}"#
        )
    }

    @Test func nonNullRootFieldNullsData() throws {
        #expect(
            try Harness.run(schema, "{ venues { id } count }", data: #"{"venues": []}"#)
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.count.","locations":[{"line":1,"column":17}],"path":["count"]}],"data":null}"#
        )
    }

    @Test func fieldsAfterAFailedNonNullSiblingAreNotExecuted() throws {
        // As graphql-js: the sibling loop stops at the first propagated error, so the bad
        // `capacity` after it reports nothing.
        let out = try Harness.run(
            schema, "{ venue(id: 1) { name capacity } }", data: #"{"venue": {"capacity": "many"}}"#)
        #expect(
            out
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Venue.name.","locations":[{"line":1,"column":18}],"path":["venue","name"]}],"data":{"venue":null}}"#
        )
    }

    @Test func listOfNonListIsAnError() throws {
        #expect(
            try Harness.run(schema, "{ acts { __typename } }", data: #"{"acts": {"__typename": "Band"}}"#)
                == #"{"errors":[{"message":"Expected Iterable, but did not find one for field \"Query.acts\".","locations":[{"line":1,"column":3}],"path":["acts"]}],"data":{"acts":null}}"#
        )
    }
}
