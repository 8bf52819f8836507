// KnownTypeNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct KnownTypeNamesRuleTests {
    @Test func knownTypesAreValid() throws {
        try expectErrors(
            KnownTypeNamesRule.rule,
            #"""
            query Q($f: TicketFilter, $g: [Genre!]!) { bands(filter: $f) { ... on Performer { name } } }
            fragment B on Band { name }
            """#,
            [])
    }

    @Test func unknownTypesWithSuggestions() throws {
        try expectErrors(
            KnownTypeNamesRule.rule,
            #"""
            query Q($a: Strin, $b: [Gnere]) { ...F ... on Bnd { name } }
            fragment F on Qury { now }
            """#,
            [
                #"Unknown type "Strin". Did you mean "String"? @1:13"#,
                #"Unknown type "Gnere". Did you mean "Genre", "Node", "Query", or "Venue"? @1:25"#,
                #"Unknown type "Bnd". Did you mean "Band", "ID", or "Int"? @1:47"#,
                #"Unknown type "Qury". Did you mean "Query"? @2:15"#,
            ])
    }

    @Test func typeSystemDefinitionsMayUseStandardTypes() throws {
        try expectErrors(
            KnownTypeNamesRule.rule,
            #"""
            { now }
            type Extra { a: Float b: Extra c: Nope }
            """#,
            [
                #"Unknown type "Nope". Did you mean "Node"? @2:35"#
            ])
    }
}
