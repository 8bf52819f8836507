// UniqueArgumentNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct UniqueArgumentNamesRuleTests {
    @Test func distinctArgumentsAreValid() throws {
        try expectErrors(
            UniqueArgumentNamesRule.rule,
            #"""
            { echo(text: "a", times: 2) @skip(if: false) }
            """#,
            [])
    }

    @Test func repeatedArguments() throws {
        try expectErrors(
            UniqueArgumentNamesRule.rule,
            #"""
            { echo(text: "a", times: 1, text: "b", text: "c") @include(if: true, if: false) }
            """#,
            [
                #"There can be only one argument named "text". @1:8,1:29,1:40"#,
                #"There can be only one argument named "if". @1:60,1:70"#,
            ])
    }
}
