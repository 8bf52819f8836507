// LoneAnonymousOperationRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct LoneAnonymousOperationRuleTests {
    @Test func oneAnonymousOperationIsValid() throws {
        try expectErrors(
            LoneAnonymousOperationRule.rule,
            #"""
            { now }
            fragment F on Query { echo }
            """#,
            [])
    }

    @Test func anonymousBesideNamed() throws {
        try expectErrors(
            LoneAnonymousOperationRule.rule,
            #"""
            { now }
            query Named { now }
            { echo }
            """#,
            [
                #"This anonymous operation must be the only defined operation. @1:1"#,
                #"This anonymous operation must be the only defined operation. @3:1"#,
            ])
    }
}
