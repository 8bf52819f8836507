// VariablesInAllowedPositionRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct VariablesInAllowedPositionRuleTests {
    @Test func fittingVariablesAreValid() throws {
        try expectErrors(
            VariablesInAllowedPositionRule.rule,
            #"""
            query Q($id: ID!, $l: Int, $t: Int = 3, $g: [Genre!]!) { band(id: $id) { members(limit: $l) { name } } echo(times: $t) bands(filter: {city: "x", genres: $g}) { name } }
            """#,
            [])
    }

    @Test func mismatchedVariables() throws {
        try expectErrors(
            VariablesInAllowedPositionRule.rule,
            #"""
            query Q($id: ID, $s: String, $g: [Genre], $b: Boolean) { band(id: $id) { setlist(venue: $s) { title } } bands(filter: {city: $s, genres: $g}) { name } now @skip(if: $b) }
            """#,
            [
                #"Variable "$id" of type "ID" used in position expecting type "ID!". @1:9,1:67"#,
                #"Variable "$s" of type "String" used in position expecting type "ID!". @1:18,1:89"#,
                #"Variable "$s" of type "String" used in position expecting type "String!". @1:18,1:126"#,
                #"Variable "$g" of type "[Genre]" used in position expecting type "[Genre!]". @1:30,1:138"#,
                #"Variable "$b" of type "Boolean" used in position expecting type "Boolean!". @1:43,1:166"#,
            ])
    }

    @Test func oneOfFieldsNeedNonNullVariables() throws {
        try expectErrors(
            VariablesInAllowedPositionRule.rule,
            #"""
            query Q($n: String, $m: String!) { findPerformer(lookup: {byName: $n}) { name } again: findPerformer(lookup: {byName: $m}) { name } }
            """#,
            [
                #"Variable "$n" is of type "String" but must be non-nullable to be used for OneOf Input Object "Lookup". @1:9,1:67"#
            ])
    }

    @Test func usagesInFragments() throws {
        try expectErrors(
            VariablesInAllowedPositionRule.rule,
            #"""
            query Q($l: String) { band(id: 1) { ...F } }
            fragment F on Band { members(limit: $l) { name } }
            """#,
            [
                #"Variable "$l" of type "String" used in position expecting type "Int". @1:9,2:37"#
            ])
    }
}
