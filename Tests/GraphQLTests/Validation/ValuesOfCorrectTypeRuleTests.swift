// ValuesOfCorrectTypeRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct ValuesOfCorrectTypeRuleTests {
    @Test func coercibleLiteralsAreValid() throws {
        try expectErrors(
            ValuesOfCorrectTypeRule.rule,
            #"""
            { echo(text: "a", times: -2147483648) bands(filter: {city: "Oslo", maxPrice: 10, genres: ROCK}) { name } performer(lookup: {byId: 4}) { name } band(id: "x") { setlist(venue: 7) { title } } }
            """#,
            [])
    }

    @Test func scalarMismatches() throws {
        try expectErrors(
            ValuesOfCorrectTypeRule.rule,
            #"""
            { echo(text: 12, times: 2147483648) bands(first: 1.5) { name } band(id: 1.0) { name } node(id: true) { id } }
            """#,
            [
                #"String cannot represent a non string value: 12 @1:14"#,
                #"Int cannot represent non 32-bit signed integer value: 2147483648 @1:25"#,
                #"Int cannot represent non-integer value: 1.5 @1:50"#,
                #"ID cannot represent a non-string and non-integer value: 1.0 @1:73"#,
                #"ID cannot represent a non-string and non-integer value: true @1:96"#,
            ])
    }

    @Test func enumsAndLists() throws {
        try expectErrors(
            ValuesOfCorrectTypeRule.rule,
            #"""
            { bands(filter: {city: "Oslo", genres: [ROCK, "JAZZ", jazz, PUNK]}) { name } grid }
            """#,
            [
                #"Enum "Genre" cannot represent non-enum value: "JAZZ". Did you mean the enum value "JAZZ"? @1:47"#,
                #"Value "jazz" does not exist in "Genre" enum. Did you mean the enum value "JAZZ"? @1:55"#,
                #"Value "PUNK" does not exist in "Genre" enum. @1:61"#,
            ])
    }

    @Test func inputObjects() throws {
        try expectErrors(
            ValuesOfCorrectTypeRule.rule,
            #"""
            { bands(filter: {maxPrice: "cheap", cty: "Oslo", soldOut: null}) { name } echo(text: {a: 1}) band(id: null) { name } }
            """#,
            [
                #"Field "TicketFilter.city" of required type "String!" was not provided. @1:17"#,
                #"Float cannot represent non numeric value: "cheap" @1:28"#,
                #"Field "cty" is not defined by type "TicketFilter". Did you mean "city"? @1:37"#,
                #"String cannot represent a non string value: {a: 1} @1:86"#,
                #"Expected value of type "ID!", found null. @1:103"#,
            ])
    }

    @Test func oneOfInputObjects() throws {
        try expectErrors(
            ValuesOfCorrectTypeRule.rule,
            #"""
            { a: performer(lookup: {byId: 1, byName: "x"}) { name } b: performer(lookup: {byName: null}) { name } c: performer(lookup: {}) { name } }
            """#,
            [
                #"OneOf Input Object "Lookup" must specify exactly one key. @1:24"#,
                #"Field "Lookup.byName" must be non-null. @1:78"#,
                #"OneOf Input Object "Lookup" must specify exactly one key. @1:124"#,
            ])
    }

    @Test func variableDefaults() throws {
        try expectErrors(
            ValuesOfCorrectTypeRule.rule,
            #"""
            query Q($t: Int = "many", $f: TicketFilter = {maxPrice: 1}) { echo(times: $t) bands(filter: $f) { name } }
            """#,
            [
                #"Int cannot represent non-integer value: "many" @1:19"#,
                #"Field "TicketFilter.city" of required type "String!" was not provided. @1:46"#,
            ])
    }
}
