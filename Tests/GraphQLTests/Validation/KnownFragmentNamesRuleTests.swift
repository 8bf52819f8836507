// KnownFragmentNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct KnownFragmentNamesRuleTests {
    @Test func definedFragmentsAreValid() throws {
        try expectErrors(
            KnownFragmentNamesRule.rule,
            #"""
            { band(id: 1) { ...F } }
            fragment F on Band { name }
            """#,
            [])
    }

    @Test func unknownFragments() throws {
        try expectErrors(
            KnownFragmentNamesRule.rule,
            #"""
            { ...Missing band(id: 1) { ... on Band { ...AlsoMissing } } }
            """#,
            [
                #"Unknown fragment "Missing". @1:6"#,
                #"Unknown fragment "AlsoMissing". @1:45"#,
            ])
    }
}
