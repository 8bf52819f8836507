// UniqueInputFieldNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct UniqueInputFieldNamesRuleTests {
    @Test func distinctInputFieldsAreValid() throws {
        try expectErrors(
            UniqueInputFieldNamesRule.rule,
            #"""
            { bands(filter: {city: "a", maxPrice: 1}) { name } }
            """#,
            [])
    }

    @Test func repeatedInputFields() throws {
        try expectErrors(
            UniqueInputFieldNamesRule.rule,
            #"""
            { bands(filter: {city: "a", city: "b", maxPrice: 1, city: "c", maxPrice: 2}) { name } now @cache(seconds: 1) }
            """#,
            [
                #"There can be only one input field named "city". @1:18,1:29"#,
                #"There can be only one input field named "city". @1:18,1:53"#,
                #"There can be only one input field named "maxPrice". @1:40,1:64"#,
            ])
    }
}
