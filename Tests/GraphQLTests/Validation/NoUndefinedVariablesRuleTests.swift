// NoUndefinedVariablesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct NoUndefinedVariablesRuleTests {
    @Test func definedVariablesAreValid() throws {
        try expectErrors(
            NoUndefinedVariablesRule.rule,
            #"""
            query Q($id: ID!, $t: String) { band(id: $id) { name } ...F }
            fragment F on Query { echo(text: $t) }
            """#,
            [])
    }

    @Test func undefinedInOperationAndFragments() throws {
        try expectErrors(
            NoUndefinedVariablesRule.rule,
            #"""
            query Q($id: ID!) { band(id: $id) { setlist(venue: $venue) { title } } ...F }
            query { ...F }
            fragment F on Query { echo(text: $t, times: $id) bands(filter: {city: $city}) { name } }
            """#,
            [
                #"Variable "$venue" is not defined by operation "Q". @1:52,1:1"#,
                #"Variable "$t" is not defined by operation "Q". @3:34,1:1"#,
                #"Variable "$city" is not defined by operation "Q". @3:71,1:1"#,
                #"Variable "$t" is not defined. @3:34,2:1"#,
                #"Variable "$id" is not defined. @3:45,2:1"#,
                #"Variable "$city" is not defined. @3:71,2:1"#,
            ])
    }
}
