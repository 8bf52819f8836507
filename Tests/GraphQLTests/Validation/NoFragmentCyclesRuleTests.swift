// NoFragmentCyclesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct NoFragmentCyclesRuleTests {
    @Test func acyclicFragmentsAreValid() throws {
        try expectErrors(
            NoFragmentCyclesRule.rule,
            #"""
            { ...A }
            fragment A on Query { ...B ...C }
            fragment B on Query { ...C }
            fragment C on Query { now }
            """#,
            [])
    }

    @Test func directAndIndirectCycles() throws {
        try expectErrors(
            NoFragmentCyclesRule.rule,
            #"""
            { ...A }
            fragment A on Query { ...A ...B }
            fragment B on Query { band(id: 1) { __typename } ...C }
            fragment C on Query { ... on Query { ...A } }
            """#,
            [
                #"Cannot spread fragment "A" within itself. @2:23"#,
                #"Cannot spread fragment "A" within itself via "B", "C". @2:28,3:50,4:38"#,
            ])
    }
}
