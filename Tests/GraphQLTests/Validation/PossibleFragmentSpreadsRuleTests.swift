// PossibleFragmentSpreadsRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct PossibleFragmentSpreadsRuleTests {
    @Test func overlappingTypesAreValid() throws {
        try expectErrors(
            PossibleFragmentSpreadsRule.rule,
            #"""
            { billing { ... on Band { name } ... on Performer { name } ...M } node(id: 1) { ... on Billing { __typename } } }
            fragment M on Musician { age }
            """#,
            [])
    }

    @Test func disjointTypes() throws {
        try expectErrors(
            PossibleFragmentSpreadsRule.rule,
            #"""
            { band(id: 1) { ...M ... on Venue { city } } place { ... on Performer { name } } }
            fragment M on Musician { age }
            """#,
            [
                #"Fragment "M" cannot be spread here as objects of type "Band" can never be of type "Musician". @1:17"#,
                #"Fragment cannot be spread here as objects of type "Band" can never be of type "Venue". @1:22"#,
                #"Fragment cannot be spread here as objects of type "Place" can never be of type "Performer". @1:54"#,
            ])
    }
}
