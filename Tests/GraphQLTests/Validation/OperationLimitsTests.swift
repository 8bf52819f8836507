import Testing

@testable import GraphQL

/// `checkOperationLimits`: each limit refuses one past it and accepts the document at it,
/// fragments count where they are spread, and each error carries its limit's code.
@Suite struct OperationLimitsTests {
    /// Each error as `CODE actual/maximum @line:column` after the document validated.
    private func check(_ text: String, _ limits: OperationLimits) throws -> [String] {
        let source = Source(text)
        let document = try parse(source)
        #expect(validate(schema: try validationTestSchema.get(), document: document, source: source).isEmpty)
        return checkOperationLimits(document: document, source: source, limits: limits).map { error in
            var text = ""
            if case .string(let code)? = error.extensions["code"] { text = code }
            if case .int(let actual)? = error.extensions["actual"],
                case .int(let maximum)? = error.extensions["maximum"]
            {
                text += " \(actual)/\(maximum)"
            }
            return text + " @" + error.locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")
        }
    }

    private let deep = "{\n  band(id: 1) {\n    members {\n      band {\n        name\n      }\n    }\n  }\n}"

    @Test func depthCountsFieldsAndPointsAtTheDeepest() throws {
        #expect(try check(deep, OperationLimits(maxDepth: 4)) == [])
        #expect(try check(deep, OperationLimits(maxDepth: 3)) == ["MAX_DEPTH_LIMIT 4/3 @5:9"])
    }

    @Test func depthFollowsFragmentsAndInlineFragmentsAddNothing() throws {
        let text = """
            { band(id: 1) { ...M } }
            fragment M on Band { members { ... on Musician { band { name } } } }
            """
        #expect(try check(text, OperationLimits(maxDepth: 4)) == [])
        #expect(try check(text, OperationLimits(maxDepth: 3)) == ["MAX_DEPTH_LIMIT 4/3 @2:57"])
    }

    @Test func aliasesCountEachUseOfAFragment() throws {
        let text = """
            query Q { a: band(id: 1) { ...F } b: band(id: 2) { ...F } }
            fragment F on Band { x: name y: name }
            """
        // Two root aliases and the fragment's two, spread twice.
        #expect(try check(text, OperationLimits(maxAliases: 6)) == [])
        #expect(try check(text, OperationLimits(maxAliases: 5)) == ["MAX_ALIASES_LIMIT 6/5 @1:1"])
    }

    @Test func rootFieldsCountAliasesAndFragmentsAtTheTop() throws {
        let text = "query Q { now a: now ...R }\nfragment R on Query { b: now echo }"
        #expect(try check(text, OperationLimits(maxAliases: 0, maxRootFields: 4)) == [])
        #expect(
            try check(text, OperationLimits(maxAliases: 0, maxRootFields: 3)) == ["MAX_ROOT_FIELDS_LIMIT 4/3 @1:1"])
    }

    @Test func directivesAreCountedPerField() throws {
        let text = "{ now @loud(level: 1) @loud(level: 2) @loud(level: 3) echo @loud(level: 1) }"
        #expect(try check(text, OperationLimits(maxDirectives: 3)) == [])
        #expect(try check(text, OperationLimits(maxDirectives: 2)) == ["MAX_DIRECTIVES_LIMIT 3/2 @1:3"])
    }

    @Test func introspectionOffRefusesSchemaAndTypeButNotTypename() throws {
        let text = "{ __typename __schema { queryType { name } } t: __type(name: \"Band\") { name } }"
        #expect(try check(text, OperationLimits()) == [])
        #expect(
            try check(text, OperationLimits(introspection: false)) == [
                "INTROSPECTION_DISABLED @1:14", "INTROSPECTION_DISABLED @1:46",
            ])
    }

    @Test func zeroTurnsALimitOff() throws {
        let aliases = "{ " + (0..<100).map { "a\($0): now" }.joined(separator: " ") + " }"
        #expect(try check(aliases, OperationLimits(maxAliases: 0, maxRootFields: 0)) == [])
        #expect(try check(aliases, .none) == [])
        #expect(
            try check(aliases, OperationLimits()) == [
                "MAX_ALIASES_LIMIT 100/15 @1:1", "MAX_ROOT_FIELDS_LIMIT 100/20 @1:1",
            ])
    }

    @Test func theIntrospectionQueryFitsTheDefaults() throws {
        #expect(try check(introspectionQuery, OperationLimits()) == [])
    }

    @Test func errorsNameTheirLimit() throws {
        let source = Source(deep)
        let errors = checkOperationLimits(
            document: try parse(source), source: source, limits: OperationLimits(maxDepth: 2))
        #expect(errors.count == 1)
        #expect(errors.first?.extensions["limit"] == .string("MaxDepth"))
        #expect(errors.first?.message == "The anonymous operation nests fields 4 levels deep, over the limit of 2.")
        #expect(errors.first?.path == nil)
    }
}
