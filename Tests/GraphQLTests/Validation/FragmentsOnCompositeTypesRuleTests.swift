// FragmentsOnCompositeTypesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct FragmentsOnCompositeTypesRuleTests {
    @Test func compositeConditionsAreValid() throws {
        try expectErrors(
            FragmentsOnCompositeTypesRule.rule,
            #"""
            { billing { ... on Band { name } ...M } }
            fragment M on Performer { name }
            """#,
            [])
    }

    @Test func scalarEnumAndInputConditions() throws {
        try expectErrors(
            FragmentsOnCompositeTypesRule.rule,
            #"""
            { now ... on Genre { x } }
            fragment S on String { x }
            fragment I on TicketFilter { x }
            """#,
            [
                #"Fragment cannot condition on non composite type "Genre". @1:14"#,
                #"Fragment "S" cannot condition on non composite type "String". @2:15"#,
                #"Fragment "I" cannot condition on non composite type "TicketFilter". @3:15"#,
            ])
    }
}
