// FieldsOnCorrectTypeRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct FieldsOnCorrectTypeRuleTests {
    @Test func definedAndMetaFieldsAreValid() throws {
        try expectErrors(
            FieldsOnCorrectTypeRule.rule,
            #"""
            { __typename __schema { queryType { name } } band(id: 1) { __typename name } billing { __typename } }
            """#,
            [])
    }

    @Test func misspelledFieldSuggestsName() throws {
        try expectErrors(
            FieldsOnCorrectTypeRule.rule,
            #"""
            { band(id: 1) { nmae formd } }
            """#,
            [
                #"Cannot query field "nmae" on type "Band". Did you mean "name"? @1:17"#,
                #"Cannot query field "formd" on type "Band". Did you mean "formed"? @1:22"#,
            ])
    }

    @Test func abstractTypeSuggestsFragments() throws {
        try expectErrors(
            FieldsOnCorrectTypeRule.rule,
            #"""
            { billing { name } node(id: 1) { name instrument } }
            """#,
            [
                #"Cannot query field "name" on type "Billing". Did you mean to use an inline fragment on "Performer", "Band", or "Musician"? @1:13"#,
                #"Cannot query field "name" on type "Node". Did you mean to use an inline fragment on "Performer", "Band", or "Musician"? @1:34"#,
                #"Cannot query field "instrument" on type "Node". Did you mean to use an inline fragment on "Musician"? @1:39"#,
            ])
    }

    @Test func metaFieldOffRoot() throws {
        try expectErrors(
            FieldsOnCorrectTypeRule.rule,
            #"""
            { band(id: 1) { __schema { types { name } } } }
            """#,
            [
                #"Cannot query field "__schema" on type "Band". @1:17"#
            ])
    }
}
