// SingleFieldSubscriptionsRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct SingleFieldSubscriptionsRuleTests {
    @Test func oneRootFieldIsValid() throws {
        try expectErrors(
            SingleFieldSubscriptionsRule.rule,
            #"""
            subscription S { songPlayed { title } ... on Subscription { songPlayed { length } } }
            """#,
            [])
    }

    @Test func twoRootFieldsViaFragment() throws {
        try expectErrors(
            SingleFieldSubscriptionsRule.rule,
            #"""
            subscription S { songPlayed { title } ...More }
            fragment More on Subscription { encoreStarted { name } alias: songPlayed { title } }
            """#,
            [
                #"Subscription "S" must select only one top level field. @2:33,2:56"#
            ])
    }

    @Test func anonymousWithIntrospection() throws {
        try expectErrors(
            SingleFieldSubscriptionsRule.rule,
            #"""
            subscription { __typename }
            """#,
            [
                #"Anonymous Subscription must not select an introspection top level field. @1:16"#
            ])
    }

    @Test func skippedFieldDoesNotCount() throws {
        try expectErrors(
            SingleFieldSubscriptionsRule.rule,
            #"""
            subscription { songPlayed { title } encoreStarted @skip(if: true) { name } }
            """#,
            [])
    }
}
