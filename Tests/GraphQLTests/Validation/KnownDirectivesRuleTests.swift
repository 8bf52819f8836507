// KnownDirectivesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct KnownDirectivesRuleTests {
    @Test func directivesInPlaceAreValid() throws {
        try expectErrors(
            KnownDirectivesRule.rule,
            #"""
            query Q($v: Int @tracked) @cache(seconds: 1) { now @skip(if: false) @cache band(id: 1) { ...F @loud(level: 1) } }
            fragment F on Band { name @include(if: true) @loud(level: 2) }
            """#,
            [])
    }

    @Test func unknownAndMisplacedDirectives() throws {
        try expectErrors(
            KnownDirectivesRule.rule,
            #"""
            query Q($v: Int @cache) @tracked { now @nope band(id: 1) @deprecated { ...F } }
            fragment F on Band @skip(if: true) { name }
            mutation M @cache { rate(song: "a", stars: 1) { title } }
            """#,
            [
                #"Directive "@cache" may not be used on VARIABLE_DEFINITION. @1:17"#,
                #"Directive "@tracked" may not be used on QUERY. @1:25"#,
                #"Unknown directive "@nope". @1:40"#,
                #"Directive "@deprecated" may not be used on FIELD. @1:58"#,
                #"Directive "@skip" may not be used on FRAGMENT_DEFINITION. @2:20"#,
                #"Directive "@cache" may not be used on MUTATION. @3:12"#,
            ])
    }
}
