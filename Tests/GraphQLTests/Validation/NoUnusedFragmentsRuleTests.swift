// NoUnusedFragmentsRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct NoUnusedFragmentsRuleTests {
    @Test func fragmentsUsedTransitivelyAreValid() throws {
        try expectErrors(
            NoUnusedFragmentsRule.rule,
            #"""
            { ...A }
            fragment A on Query { ...B }
            fragment B on Query { now }
            """#,
            [])
    }

    @Test func unusedFragmentsIncludingCycles() throws {
        try expectErrors(
            NoUnusedFragmentsRule.rule,
            #"""
            { now }
            fragment A on Query { ...B }
            fragment B on Query { ...A }
            fragment C on Query { echo }
            """#,
            [
                #"Fragment "A" is never used. @2:1"#,
                #"Fragment "B" is never used. @3:1"#,
                #"Fragment "C" is never used. @4:1"#,
            ])
    }
}
