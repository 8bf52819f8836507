// UniqueDirectivesPerLocationRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct UniqueDirectivesPerLocationRuleTests {
    @Test func repeatableAndDistinctAreValid() throws {
        try expectErrors(
            UniqueDirectivesPerLocationRule.rule,
            #"""
            { now @loud(level: 1) @loud(level: 2) @skip(if: false) @include(if: true) }
            """#,
            [])
    }

    @Test func repeatedDirectives() throws {
        try expectErrors(
            UniqueDirectivesPerLocationRule.rule,
            #"""
            query Q @cache @cache { now @skip(if: false) @skip(if: true) @skip(if: false) band(id: 1) { ...F @include(if: true) @include(if: true) } }
            fragment F on Band { name }
            """#,
            [
                #"The directive "@cache" can only be used once at this location. @1:9,1:16"#,
                #"The directive "@skip" can only be used once at this location. @1:29,1:46"#,
                #"The directive "@skip" can only be used once at this location. @1:29,1:62"#,
                #"The directive "@include" can only be used once at this location. @1:98,1:117"#,
            ])
    }
}
