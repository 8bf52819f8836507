// KnownArgumentNamesRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct KnownArgumentNamesRuleTests {
    @Test func knownArgumentsAreValid() throws {
        try expectErrors(
            KnownArgumentNamesRule.rule,
            #"""
            { band(id: 1) { members(limit: 2) { name } } now @skip(if: true) echo(text: "a", times: 2) }
            """#,
            [])
    }

    @Test func unknownArguments() throws {
        try expectErrors(
            KnownArgumentNamesRule.rule,
            #"""
            { band(id: 1, ide: 2) { name(full: true) } echo(txt: "a") @skip(iff: true) @nope(x: 1) }
            """#,
            [
                #"Unknown argument "ide" on field "Query.band". Did you mean "id"? @1:15"#,
                #"Unknown argument "full" on field "Band.name". @1:30"#,
                #"Unknown argument "txt" on field "Query.echo". Did you mean "text"? @1:49"#,
                #"Unknown argument "iff" on directive "@skip". Did you mean "if"? @1:65"#,
            ])
    }
}
