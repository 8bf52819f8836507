import Foundation
import GraphQL
import Testing

@testable import Catalog

/// The estimate read from the schema's cost directives: an edit of `schema.graphql` (or a
/// `--schema` copy) changes it with no Swift change.
@Suite struct CostModelTests {
    static func estimate(_ query: String, sdl: String, variables: JSONObject = JSONObject()) throws
        -> QueryCost.Estimate
    {
        let schema = try buildSchema(source: Source(sdl))
        let source = Source(query)
        return QueryCost.analyze(
            document: try parse(source), source: source, operationName: nil, variables: variables, schema: schema)
    }

    static let directives = """
        directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
        directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION

        """

    @Test func halvingTheYouTubeSearchWeightHalvesThatPartOfTheEstimate() throws {
        let original = GatewaySchema.sdl
        let edited = original.replacingOccurrences(
            of: "  ): [Video!]\n    @cost(weight: 100)\n    @costWhen",
            with: "  ): [Video!]\n    @cost(weight: 50)\n    @costWhen")
        #expect(edited != original)
        let query = LoopbackTests.GatewayRequestCounts.ironMaiden
        let before = try Self.estimate(query, sdl: original).cost
        let after = try Self.estimate(query, sdl: edited).cost
        // 3 calls of 1 unit (artist, albums, tracks) + 25 × 15 searches at 100, then at 50.
        #expect(before == 3 + 37_500)
        #expect(after == 3 + 18_750)
    }

    @Test func listSizesComeFromSlicingArgumentsDefaultsOrTheAssumedSize() throws {
        let sdl =
            Self.directives + """
                type Query {
                  items(first: Int, last: Int): [Item] @cost(weight: 2) @listSize(slicingArguments: ["first", "last"], requireOneSlicingArgument: false)
                  page(size: Int = 4): Page @cost(weight: 1) @listSize(slicingArguments: ["size"], sizedFields: ["edges"])
                  guessed: [Item] @cost(weight: 1) @listSize(assumedSize: 7)
                  plain: [Item] @cost(weight: 1)
                  priced(filter: Filter @cost(weight: 5)): Int
                  strict(first: Int, last: Int): [Item] @cost(weight: 1) @listSize(slicingArguments: ["first", "last"])
                }
                type Page { edges: [Item] total: Int }
                type Item @cost(weight: 3) { name: String child: Item @cost(weight: 10) tag: Tag }
                scalar Tag @cost(weight: 1)
                input Filter { deep: Boolean @cost(weight: 4) }
                """
        // Field weight once per call (2), children × the largest slicing value (5): 5 × 10.
        #expect(try Self.estimate("{ items(first: 5, last: 2) { child { name } } }", sdl: sdl).cost == 2 + 5 * 10)
        // A connection: the size (the argument's default, 4) applies to `edges`, not to `page`; an
        // Item reached without a weight of its own costs its type's weight (3) each.
        #expect(try Self.estimate("{ page { edges { name } total } }", sdl: sdl).cost == 1 + 4 * 3)
        #expect(
            try Self.estimate("{ page(size: 2) { edges { child { name } } } }", sdl: sdl).cost == 1 + 2 * 3 + 2 * 10)
        #expect(try Self.estimate("{ guessed { name } }", sdl: sdl).cost == 1)
        #expect(try Self.estimate("{ guessed { child { name } } }", sdl: sdl).cost == 1 + 7 * 10)
        #expect(try Self.estimate("{ plain { child { name } } }", sdl: sdl).cost == 1 + QueryCost.defaultListSize * 10)
        // Scalars with a weight: per value returned.
        #expect(try Self.estimate("{ guessed { tag } }", sdl: sdl).cost == 1 + 7 * 1)
        // Arguments and input fields weigh when given.
        #expect(try Self.estimate("{ priced }", sdl: sdl).cost == 0)
        #expect(try Self.estimate("{ priced(filter: {}) }", sdl: sdl).cost == 5)
        #expect(try Self.estimate("{ priced(filter: {deep: true}) }", sdl: sdl).cost == 9)
        #expect(
            try Self.estimate(
                "query($f: Filter) { priced(filter: $f) }", sdl: sdl,
                variables: JSONObject([("f", .object(JSONObject([("deep", .bool(false))])))])
            ).cost == 9)
        // requireOneSlicingArgument (the default): none or two given is named.
        #expect(try Self.estimate("{ strict(first: 1) { name } }", sdl: sdl).problems == [])
        #expect(try Self.estimate("{ strict { name } }", sdl: sdl).problems.count == 1)
        let two = try Self.estimate("{ strict(first: 1, last: 1) { name } }", sdl: sdl).problems
        #expect(
            two == [
                "Query.strict needs exactly one of its slicing arguments (first, last) to have a value, got 2 "
                    + "(@listSize(requireOneSlicingArgument: true) in the schema)."
            ])
    }

    @Test func directivesThatCannotBeUsedStopTheGateway() throws {
        for (field, reason) in [
            ("a: Int @cost(weight: -1)", "@cost on Query.a has a negative weight (-1)"),
            ("a(first: Int): [Int] @listSize(slicingArguments: [\"last\"])", "names slicing argument 'last'"),
            ("a: [Int] @listSize(assumedSize: -3)", "@listSize on Query.a has a negative assumedSize"),
        ] {
            let schema = try buildSchema(source: Source(Self.directives + "type Query { \(field) }"))
            #expect(throws: GatewayStartError.self) { try CostModel(schema: schema) }
            do {
                _ = try CostModel(schema: schema)
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }
}

/// Introspection is priced too: `__schema` 100 and `__type` 10 per selection, `__typename` free.
@Suite struct IntrospectionCostTests {
    static func estimate(_ query: String) throws -> Int {
        try CostModelTests.estimate(query, sdl: GatewaySchema.sdl).cost
    }

    @Test func eachIntrospectionSelectionAddsItsWeight() throws {
        #expect(try Self.estimate("{ __typename }") == 0)
        #expect(try Self.estimate("{ __schema { types { name fields { name } } } }") == 100)
        #expect(try Self.estimate(#"{ __type(name: "Artist") { fields { name } } }"#) == 10)
        #expect(try Self.estimate(#"{ a: __schema { queryType { name } } b: __type(name: "Album") { name } }"#) == 110)
        // Added to the upstream calls of the same operation.
        #expect(try Self.estimate(#"{ __schema { queryType { name } } artist(name: "x") { name } }"#) == 101)
    }

    @Test func theIssuesSixHundredAliasesCostSixtyThousand() throws {
        let selection = (0..<600).map { "s\($0): __schema { types { name fields { name } } queryType { name } }" }
        let cost = try Self.estimate("{ " + selection.joined(separator: " ") + " }")
        #expect(cost == 60_000)
        #expect(cost > GatewayConfiguration.defaultMaxQueryCost)
    }
}
