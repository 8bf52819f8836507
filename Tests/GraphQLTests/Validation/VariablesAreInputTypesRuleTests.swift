// VariablesAreInputTypesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct VariablesAreInputTypesRuleTests {
    @Test func inputTypesAreValid() throws {
        try expectErrors(
            VariablesAreInputTypesRule.rule,
            #"""
            query Q($a: String, $b: [TicketFilter!]!, $c: Genre, $d: Timestamp) { now }
            """#,
            [])
    }

    @Test func outputTypesAreNot() throws {
        try expectErrors(
            VariablesAreInputTypesRule.rule,
            #"""
            query Q($a: Band, $b: [Billing!]!, $c: Node, $d: Unknown) { now }
            """#,
            [
                #"Variable "$a" cannot be non-input type "Band". @1:13"#,
                #"Variable "$b" cannot be non-input type "[Billing!]!". @1:23"#,
                #"Variable "$c" cannot be non-input type "Node". @1:40"#,
            ])
    }
}
