// NoUnusedVariablesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct NoUnusedVariablesRuleTests {
    @Test func usedVariablesAreValid() throws {
        try expectErrors(
            NoUnusedVariablesRule.rule,
            #"""
            query Q($id: ID!, $l: Int) { band(id: $id) { ...F } }
            fragment F on Band { members(limit: $l) { name } }
            """#,
            [])
    }

    @Test func unusedVariables() throws {
        try expectErrors(
            NoUnusedVariablesRule.rule,
            #"""
            query Q($id: ID!, $unused: Int, $alsoUnused: String) { band(id: $id) { name } }
            query ($x: Int) { now }
            """#,
            [
                #"Variable "$unused" is never used in operation "Q". @1:19"#,
                #"Variable "$alsoUnused" is never used in operation "Q". @1:33"#,
                #"Variable "$x" is never used. @2:8"#,
            ])
    }
}
