import Testing

@testable import GraphQL

@Suite struct CollectFieldsTests {
    let schema: Schema
    init() throws { schema = try Harness.schema(concertSDL) }

    @Test func fragmentConditionsOnInterfacesUnionsAndObjects() throws {
        let query = """
            { acts { ... on Act { __typename } ... on Named { name } ...BandBits ... on Solo { instrument } } }
            fragment BandBits on Band { members name }
            """
        let data =
            #"{"acts": [{"__typename": "Solo", "name": "S", "instrument": "GUITAR"}, {"__typename": "Band", "name": "B", "members": []}]}"#
        #expect(
            try Harness.run(schema, query, data: data)
                == #"{"data":{"acts":[{"__typename":"Solo","name":"S","instrument":"GUITAR"},{"__typename":"Band","name":"B","members":[]}]}}"#
        )
    }

    @Test func mergedFieldsCombineTheirSubSelections() throws {
        let query = "{ venue(id: 1) { geo { lat } ... on Venue { geo { lon } } geo { lat } } }"
        #expect(
            try Harness.run(schema, query, data: #"{"venue": {"geo": {"lon": 2.5, "lat": 1}}}"#)
                == #"{"data":{"venue":{"geo":{"lat":1,"lon":2.5}}}}"#)
    }

    @Test func directivesOnFragmentSpreadsAndInlineFragments() throws {
        let query = """
            query ($no: Boolean = false) {
              ...C @include(if: $no)
              ... on Query @skip(if: $no) { tickets }
              count @include(if: true) @skip(if: false)
            }
            fragment C on Query { venues { id } }
            """
        #expect(
            try Harness.run(schema, query, data: #"{"count": 1, "tickets": [], "venues": []}"#)
                == #"{"data":{"tickets":[],"count":1}}"#)
    }
}
