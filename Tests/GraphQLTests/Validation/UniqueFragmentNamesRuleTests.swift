// UniqueFragmentNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct UniqueFragmentNamesRuleTests {
    @Test func distinctFragmentsAreValid() throws {
        try expectErrors(
            UniqueFragmentNamesRule.rule,
            #"""
            { ...A ...B }
            fragment A on Query { now }
            fragment B on Query { echo }
            """#,
            [])
    }

    @Test func repeatedFragmentName() throws {
        try expectErrors(
            UniqueFragmentNamesRule.rule,
            #"""
            { ...A }
            fragment A on Query { now }
            fragment A on Query { echo }
            fragment A on Query { grid }
            """#,
            [
                #"There can be only one fragment named "A". @2:10,3:10"#,
                #"There can be only one fragment named "A". @2:10,4:10"#,
            ])
    }
}
