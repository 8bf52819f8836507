// ProvidedRequiredArgumentsRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct ProvidedRequiredArgumentsRuleTests {
    @Test func requiredArgumentsGivenAreValid() throws {
        try expectErrors(
            ProvidedRequiredArgumentsRule.rule,
            #"""
            { band(id: 1) { setlist(venue: 2) { title } } echo now @include(if: true) }
            """#,
            [])
    }

    @Test func missingArguments() throws {
        try expectErrors(
            ProvidedRequiredArgumentsRule.rule,
            #"""
            { band { setlist { title } } now @skip @loud }
            mutation { rate { title } }
            """#,
            [
                #"Field "setlist" argument "venue" of type "ID!" is required, but it was not provided. @1:10"#,
                #"Field "band" argument "id" of type "ID!" is required, but it was not provided. @1:3"#,
                #"Directive "@skip" argument "if" of type "Boolean!" is required, but it was not provided. @1:34"#,
                #"Directive "@loud" argument "level" of type "Int!" is required, but it was not provided. @1:40"#,
                #"Field "rate" argument "song" of type "String!" is required, but it was not provided. @2:12"#,
                #"Field "rate" argument "stars" of type "Int!" is required, but it was not provided. @2:12"#,
            ])
    }
}
