// ScalarLeafsRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct ScalarLeafsRuleTests {
    @Test func leavesAndSelectionsWhereDue() throws {
        try expectErrors(
            ScalarLeafsRule.rule,
            #"""
            { band(id: 1) { name genre members { age } } now }
            """#,
            [])
    }

    @Test func objectWithoutSelection() throws {
        try expectErrors(
            ScalarLeafsRule.rule,
            #"""
            { band(id: 1) bands { name } }
            """#,
            [
                #"Field "band" of type "Band" must have a selection of subfields. Did you mean "band { ... }"? @1:3"#
            ])
    }

    @Test func leafWithSelection() throws {
        try expectErrors(
            ScalarLeafsRule.rule,
            #"""
            { now { x } band(id: 1) { genre { y } __typename { z } } }
            """#,
            [
                #"Field "now" must not have a selection since type "Timestamp" has no subfields. @1:7"#,
                #"Field "genre" must not have a selection since type "Genre" has no subfields. @1:33"#,
                #"Field "__typename" must not have a selection since type "String!" has no subfields. @1:50"#,
            ])
    }
}
