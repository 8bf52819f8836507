// OverlappingFieldsCanBeMergedRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct OverlappingFieldsCanBeMergedRuleTests {
    @Test func mergeableFieldsAreValid() throws {
        try expectErrors(
            OverlappingFieldsCanBeMergedRule.rule,
            #"""
            { band(id: 1) { name name n: name members { age } members { name } } billing { ... on Band { x: name } ... on Musician { x: name } } }
            """#,
            [])
    }

    @Test func aliasesForDifferentFields() throws {
        try expectErrors(
            OverlappingFieldsCanBeMergedRule.rule,
            #"""
            { band(id: 1) { x: name x: formed } }
            """#,
            [
                #"Fields "x" conflict because "name" and "formed" are different fields. Use different aliases on the fields to fetch both if this was intentional. @1:17,1:25"#
            ])
    }

    @Test func differingArguments() throws {
        try expectErrors(
            OverlappingFieldsCanBeMergedRule.rule,
            #"""
            { echo(text: "a") echo(text: "b") e: echo e: echo(times: 2) }
            """#,
            [
                #"Fields "echo" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional. @1:3,1:19"#,
                #"Fields "e" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional. @1:35,1:43"#,
            ])
    }

    @Test func conflictingReturnTypes() throws {
        try expectErrors(
            OverlappingFieldsCanBeMergedRule.rule,
            #"""
            { billing { ... on Band { v: formed } ... on Musician { v: instrument } } node(id: 1) { ... on Band { t: tags } ... on Venue { t: city } } }
            """#,
            [
                #"Fields "v" conflict because they return conflicting types "Int" and "String". Use different aliases on the fields to fetch both if this was intentional. @1:27,1:57"#,
                #"Fields "t" conflict because they return conflicting types "[String!]" and "String". Use different aliases on the fields to fetch both if this was intentional. @1:103,1:128"#,
            ])
    }

    @Test func conflictsThroughFragmentsAndSubfields() throws {
        try expectErrors(
            OverlappingFieldsCanBeMergedRule.rule,
            #"""
            { band(id: 1) { ...A members { x: name } } }
            fragment A on Band { members { x: instrument } ...B }
            fragment B on Band { name: formed }
            """#,
            [
                #"Fields "members" conflict because subfields "x" conflict because "name" and "instrument" are different fields. Use different aliases on the fields to fetch both if this was intentional. @1:22,1:32,2:22,2:32"#
            ])
    }
}
