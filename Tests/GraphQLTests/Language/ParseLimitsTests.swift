import Testing

@testable import GraphQL

/// `ParseOptions.maxTokens` and `maxDepth`: hostile documents end in a clean syntax error
/// at the token that crosses the limit, never a crash or a stack overflow.
@Suite struct ParseLimitsTests {
    // MARK: - Tokens

    @Test func aDocumentWithinTheTokenLimitParses() {
        // `{ a b c }` is five tokens.
        #expect(parseError("{ a b c }", options: ParseOptions(maxTokens: 5)) == nil)
    }

    @Test func theTokenPastTheLimitIsTheError() {
        #expect(
            parseError("{ a b c }", options: ParseOptions(maxTokens: 4))
                == ReportedError(
                    "Syntax Error: Document contains more than 4 tokens. Parsing aborted.", 1, 9))
        #expect(
            parseError("query Q {\n  a\n  b\n}", options: ParseOptions(maxTokens: 3))
                == ReportedError(
                    "Syntax Error: Document contains more than 3 tokens. Parsing aborted.", 2, 3))
    }

    @Test func ignoredTokensAndTheEndDoNotCount() {
        #expect(parseError("# c\n{ , a , }  # more\n", options: ParseOptions(maxTokens: 3)) == nil)
    }

    @Test func noTokenLimitByDefault() throws {
        let fields = String(repeating: "f ", count: 20_000)
        let document = try parse(Source("{ \(fields)}"))
        guard case .operation(let operation) = document.definitions.first else {
            Issue.record("expected an operation")
            return
        }
        #expect(operation.selectionSet.selections.count == 20_000)
    }

    // MARK: - Depth

    @Test func selectionSetsUpToTheDepthLimitParse() {
        let text = String(repeating: "{ a ", count: 3) + String(repeating: "} ", count: 3)
        #expect(parseError(text, options: ParseOptions(maxDepth: 3)) == nil)
    }

    @Test func theSelectionSetPastTheDepthLimitIsTheError() {
        let text = String(repeating: "{ a ", count: 4) + String(repeating: "} ", count: 4)
        #expect(
            parseError(text, options: ParseOptions(maxDepth: 3))
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted.", 1, 13))
    }

    @Test func listAndObjectValuesCountTowardsTheDepth() {
        #expect(parseError("{ f(a: [[1]]) }", options: ParseOptions(maxDepth: 3)) == nil)
        #expect(
            parseError("{ f(a: [[[1]]]) }", options: ParseOptions(maxDepth: 3))
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted.", 1, 10))
        #expect(parseError("{ f(a: {b: {c: 1}}) }", options: ParseOptions(maxDepth: 3)) == nil)
        #expect(
            parseError("{ f(a: {b: [{c: 1}]}) }", options: ParseOptions(maxDepth: 3))
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted.", 1, 13))
    }

    @Test func listTypesCountTowardsTheDepth() {
        #expect(parseError("query Q($v: [[Int]]) { a }", options: ParseOptions(maxDepth: 3)) == nil)
        #expect(parseError("query Q($v: [[[Int!]!]]) { a }", options: ParseOptions(maxDepth: 3)) == nil)
        #expect(
            parseError("query Q($v: [[[[Int]]]]) { a }", options: ParseOptions(maxDepth: 3))
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted.", 1, 16))
        #expect(
            parseError("type T { f: [[[[Int]]]] }", options: ParseOptions(maxDepth: 3))
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted.", 1, 16))
    }

    @Test func theDefaultDepthLimitIs500() {
        let deep500 = String(repeating: "[", count: 499) + "1" + String(repeating: "]", count: 499)
        #expect(parseError("{ f(a: \(deep500)) }") == nil)  // 499 lists inside one selection set
        let deep501 = "[" + deep500 + "]"
        #expect(
            parseError("{ f(a: \(deep501)) }")
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 500 levels. Parsing aborted.", 1, 507))
    }

    @Test func fiveHundredNestedSelectionSetsParseWithTheDefaultLimit() throws {
        let text = String(repeating: "{ a ", count: 500) + String(repeating: "}", count: 500)
        let document = try parse(Source(text))
        var depth = 0
        var selectionSet: SelectionSet? = nil
        if case .operation(let operation) = document.definitions.first { selectionSet = operation.selectionSet }
        while let current = selectionSet {
            depth += 1
            guard case .field(let field) = current.selections.first else { break }
            selectionSet = field.selectionSet
        }
        #expect(depth == 500)
    }

    // MARK: - Hostile documents

    @Test func a100000DeepSelectionSetFailsCleanly() {
        // 1 MB: `{ track ` opened 100,000 times, then closed.
        let text = String(repeating: "{ track ", count: 100_000) + String(repeating: "} ", count: 100_000)
        #expect(text.utf8.count == 1_000_000)
        #expect(
            parseError(text)
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 500 levels. Parsing aborted.", 1, 4001))
    }

    @Test func a100000DeepRunOfOpeningBracesFailsCleanly() {
        #expect(
            parseError(String(repeating: "{", count: 100_000))
                == ReportedError(
                    "Syntax Error: Expected Name, found \"{\".", 1, 2))
        // The selection set is level 1, so the 500th object value is one too deep.
        #expect(
            parseError("{ a(b: " + String(repeating: "{c: ", count: 100_000))
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 500 levels. Parsing aborted.", 1, 2004))
    }

    @Test func a100000DeepListValueFailsCleanly() {
        let text = "{ f(a: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + ") }"
        #expect(
            parseError(text)
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 500 levels. Parsing aborted.", 1, 507))
    }

    @Test func a100000DeepListTypeFailsCleanly() {
        let text =
            "query Q($v: " + String(repeating: "[", count: 100_000) + "Int" + String(repeating: "]", count: 100_000)
            + ") { a }"
        #expect(
            parseError(text)
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 500 levels. Parsing aborted.", 1, 513))
        let sdl =
            "type T { f: " + String(repeating: "[", count: 100_000) + "Int" + String(repeating: "]", count: 100_000)
            + " }"
        #expect(
            parseError(sdl)
                == ReportedError(
                    "Syntax Error: Document nesting is deeper than 500 levels. Parsing aborted.", 1, 513))
    }

    @Test func theTokenLimitStopsAHugeFlatDocumentEarly() {
        let text = "{ " + String(repeating: "a ", count: 500_000) + "}"
        #expect(
            parseError(text, options: ParseOptions(maxTokens: ParseOptions.serverMaxTokens))
                == ReportedError(
                    "Syntax Error: Document contains more than 15000 tokens. Parsing aborted.", 1, 30001))
    }
}
