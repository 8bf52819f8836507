// ExecutableDefinitionsRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct ExecutableDefinitionsRuleTests {
    @Test func operationsAndFragmentsAreExecutable() throws {
        try expectErrors(
            ExecutableDefinitionsRule.rule,
            #"""
            query Q { ...B }
            fragment B on Query { now }
            """#,
            [])
    }

    @Test func typeDefinitionsAreNot() throws {
        try expectErrors(
            ExecutableDefinitionsRule.rule,
            #"""
            { now }
            type Extra { a: Int }
            input Filter { b: Int }
            """#,
            [
                #"The "Extra" definition is not executable. @2:1"#,
                #"The "Filter" definition is not executable. @3:1"#,
            ])
    }

    @Test func schemaAndExtensionsAreNot() throws {
        try expectErrors(
            ExecutableDefinitionsRule.rule,
            #"""
            { now }
            schema { query: Query }
            extend type Band { c: Int }
            directive @x on FIELD
            """#,
            [
                #"The schema definition is not executable. @2:1"#,
                #"The "Band" definition is not executable. @3:1"#,
                #"The "x" definition is not executable. @4:1"#,
            ])
    }
}
