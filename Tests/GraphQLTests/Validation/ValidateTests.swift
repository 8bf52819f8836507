// `validate` as a whole: every specified rule in one walk, graphql-js's error order
// (variable checks that need later fragments land where graphql-js reports them), the
// error limit, rule tags, and type system definitions inside executable documents.
import Testing

@testable import GraphQL

@Suite struct ValidateTests {
    private let operations = #"""
        query Q { echo(text: $x) nope }
        query R($u: Int) { nope2 ...F }
        fragment F on Query { echo(times: $y) }
        """#

    @Test func errorsComeInGraphQLJSOrder() throws {
        #expect(
            try renderedErrors(operations, rules: specifiedRules) == [
                #"Cannot query field "nope" on type "Query". Did you mean "node" or "now"? @1:26"#,
                #"Variable "$x" is not defined by operation "Q". @1:22,1:1"#,
                #"Cannot query field "nope2" on type "Query". Did you mean "node" or "now"? @2:20"#,
                #"Variable "$y" is not defined by operation "R". @3:35,2:1"#,
                #"Variable "$u" is never used in operation "R". @2:9"#,
            ])
    }

    @Test func errorLimitCutsTheListAndSaysSo() throws {
        let source = Source(operations)
        let errors = validate(
            schema: try validationTestSchema.get(), document: try parse(source), source: source, maxErrors: 3)
        #expect(
            errors.map(\.message) == [
                #"Cannot query field "nope" on type "Query". Did you mean "node" or "now"?"#,
                #"Variable "$x" is not defined by operation "Q"."#,
                #"Cannot query field "nope2" on type "Query". Did you mean "node" or "now"?"#,
                "Too many validation errors, error limit reached. Validation aborted.",
            ])
        #expect(errors[3].locations == [])
        #expect(errors[3].extensions.count == 0)
    }

    @Test func everyErrorNamesItsRule() throws {
        let source = Source("query Q($a: Int) { band { nmae } ...Nope }")
        let errors = validate(schema: try validationTestSchema.get(), document: try parse(source), source: source)
        #expect(
            errors.map { $0.extensions["rule"] } == [
                .string("FieldsOnCorrectType"), .string("ProvidedRequiredArguments"), .string("KnownFragmentNames"),
                .string("NoUnusedVariables"),
            ])
    }

    @Test func validDocumentHasNoErrors() throws {
        #expect(
            try renderedErrors(
                #"""
                query Home($id: ID!, $lookup: Lookup!, $withTags: Boolean = false) {
                  band(id: $id) { ...BandBits tags @include(if: $withTags) }
                  performer(lookup: $lookup) { __typename ... on Musician { instrument band { name } } }
                  billing { ... on Band { name } ... on Musician { name } }
                }
                fragment BandBits on Band { id name members(limit: 3) { name } setlist(venue: $id) { title } }
                """#, rules: specifiedRules) == [])
    }

    @Test func typeSystemDefinitionsAreCheckedToo() throws {
        #expect(
            try renderedErrors(
                #"""
                { now }
                extend schema @cache
                type Extra @nope { field(arg: Strng): Int }
                """#, rules: specifiedRules) == [
                    #"The schema definition is not executable. @2:1"#,
                    #"The "Extra" definition is not executable. @3:1"#,
                    #"Directive "@cache" may not be used on SCHEMA. @2:15"#,
                    #"Unknown directive "@nope". @3:12"#,
                    #"Unknown type "Strng". Did you mean "String" or "Song"? @3:31"#,
                ])
    }

    @Test func locationsCountEveryLineTerminatorAndScalar() throws {
        #expect(
            try renderedErrors("{ now }\r\n{ echo }\r{ grid }\n{ band(id: \"üé\") { nope } }", rules: specifiedRules)
                == [
                    "This anonymous operation must be the only defined operation. @1:1",
                    "This anonymous operation must be the only defined operation. @2:1",
                    "This anonymous operation must be the only defined operation. @3:1",
                    "This anonymous operation must be the only defined operation. @4:1",
                    #"Cannot query field "nope" on type "Band". Did you mean "name"? @4:20"#,
                ])
    }

    @Test func mutationOnAQueryOnlySchemaIsNoValidationError() throws {
        let schema = try buildSchema(sdl: "type Query { a: Int }")
        #expect(try renderedErrors("mutation { a }", rules: specifiedRules, schema: schema) == [])
    }

    @Test func fragmentsNestingHundredsOfLevelsDeepValidate() throws {
        // 250 fragments, each nesting two levels below the previous: 750 levels through
        // spreads, valid for graphql-js (graphql-core stops at 200; our guard sits at
        // FragmentNesting.maxNestingDepth, see HostileShapesTests).
        var text = "{ band(id: 1) { ...F0 } }\n"
        for i in 0..<250 { text += "fragment F\(i) on Band { members { band { ...F\(i + 1) } } }\n" }
        text += "fragment F250 on Band { name }\n"
        let source = Source(text)
        let errors = validate(schema: try validationTestSchema.get(), document: try parse(source), source: source)
        #expect(errors.map(\.message) == [])
    }
}
