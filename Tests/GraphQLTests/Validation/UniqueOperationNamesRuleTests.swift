// UniqueOperationNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct UniqueOperationNamesRuleTests {
    @Test func distinctNamesAreValid() throws {
        try expectErrors(
            UniqueOperationNamesRule.rule,
            #"""
            query A { now }
            query B { now }
            mutation C { rate(song: "x", stars: 1) { title } }
            """#,
            [])
    }

    @Test func sameNameAcrossOperationTypes() throws {
        try expectErrors(
            UniqueOperationNamesRule.rule,
            #"""
            query Same { now }
            mutation Same { rate(song: "x", stars: 1) { title } }
            subscription Same { songPlayed { title } }
            """#,
            [
                #"There can be only one operation named "Same". @1:7,2:10"#,
                #"There can be only one operation named "Same". @1:7,3:14"#,
            ])
    }
}
