// NoDeprecatedCustomRule (graphql-js's optional rule): every use of a deprecated field,
// argument, input field or enum value, against a schema that deprecates one of each.
import Testing

@testable import GraphQL

@Suite struct NoDeprecatedCustomRuleTests {
    static let sdl = #"""
        type Query {
          album(id: ID!, legacyId: Int @deprecated(reason: "Use `id`.")): Album
          search(filter: Filter, order: Order = NEWEST): [Album!]!
          oldest: Album @deprecated
        }

        type Album {
          title: String!
          year: Int @deprecated(reason: "Use `releaseDate`.")
          releaseDate: String
        }

        input Filter {
          term: String
          genre: String @deprecated(reason: "Genres moved to tags.")
        }

        enum Order {
          NEWEST
          CHART @deprecated(reason: "Charts are gone.")
        }

        directive @sample(rate: Float, percent: Int @deprecated(reason: "Use `rate`.")) on FIELD
        """#

    func errors(_ document: String) throws -> [String] {
        try renderedErrors(document, rules: [noDeprecatedCustomRule], schema: try buildSchema(sdl: Self.sdl))
    }

    @Test func currentMembersAreClean() throws {
        #expect(
            try errors(
                #"{ album(id: 1) { title releaseDate } search(filter: {term: "x"}, order: NEWEST) { title } }"#)
                == [])
    }

    @Test func everyKindOfDeprecatedUseIsReportedWhereItIs() throws {
        #expect(
            try errors(
                #"""
                {
                  album(id: 1, legacyId: 2) { year title @sample(percent: 5) }
                  search(filter: {genre: "rock"}, order: CHART) { title }
                  oldest { title }
                }
                """#)
                == [
                    #"Field "Query.album" argument "legacyId" is deprecated. Use `id`. @2:16"#,
                    #"The field Album.year is deprecated. Use `releaseDate`. @2:31"#,
                    #"Directive "@sample" argument "percent" is deprecated. Use `rate`. @2:50"#,
                    #"The input field Filter.genre is deprecated. Genres moved to tags. @3:19"#,
                    #"The enum value "Order.CHART" is deprecated. Charts are gone. @3:42"#,
                    #"The field Query.oldest is deprecated. No longer supported @4:3"#,
                ])
    }

    @Test func enumValuesInVariableDefaultsCount() throws {
        #expect(
            try errors(#"query ($o: Order = CHART) { search(order: $o) { title } }"#)
                == [#"The enum value "Order.CHART" is deprecated. Charts are gone. @1:20"#])
    }

    @Test func reportsCarryTheRuleName() throws {
        let schema = try buildSchema(sdl: Self.sdl)
        let source = Source("{ oldest { title } }")
        let found = validate(
            schema: schema, document: try parse(source), source: source, rules: [noDeprecatedCustomRule])
        #expect(found.map(\.extensions["rule"]) == [.string("NoDeprecatedCustom")])
    }
}
