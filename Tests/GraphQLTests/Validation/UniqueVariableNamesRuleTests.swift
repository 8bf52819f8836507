// UniqueVariableNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct UniqueVariableNamesRuleTests {
    @Test func distinctVariablesAreValid() throws {
        try expectErrors(
            UniqueVariableNamesRule.rule,
            #"""
            query A($x: Int) { echo(times: $x) }
            query B($x: Int) { echo(times: $x) }
            """#,
            [])
    }

    @Test func repeatedVariables() throws {
        try expectErrors(
            UniqueVariableNamesRule.rule,
            #"""
            query A($x: Int, $y: Int, $x: String, $y: Int, $x: Int) { echo(times: $y) }
            """#,
            [
                #"There can be only one variable named "$x". @1:10,1:28,1:49"#,
                #"There can be only one variable named "$y". @1:19,1:40"#,
            ])
    }
}
