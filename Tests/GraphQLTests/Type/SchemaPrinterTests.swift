import Testing

@testable import GraphQL

// Expected texts are graphql-core 3.2.14 `print_schema(build_schema(sdl))` for the same SDL
// (the conformance oracle), byte for byte.

private func build(_ sdl: String) throws -> Schema {
    do {
        return try buildSchema(sdl: sdl)
    } catch {
        Issue.record("schema did not build:\n\(error.description)")
        throw error
    }
}

@Suite struct SchemaPrinterTests {
    @Test func minimal() throws {
        let sdl = #"""
            type Query { ping: String }
            """#
        let expected = #"""
            type Query {
              ping: String
            }
            """#
        #expect(printSchema(try build(sdl)) == expected)
    }

    @Test func descriptions() throws {
        let sdl = #"""
            """
            A music catalog.
            """
            schema { query: Catalog }

            "Fetch things"
            type Catalog {
              "First field"
              artist("Artist name" name: String!, "Limit" first: Int = 10): Artist
              """
              Second field,
              on two lines
              """
              album(id: ID!): String
              plain: Int
            }

            """
              indented on purpose
            """
            type Artist {
              name: String
            }

            enum Format {
              "Compact disc"
              CD
              VINYL
              "Tape, with a \"quote\""
              TAPE
            }

            "ends with a quote\""
            scalar Q1

            "tab\tinside"
            scalar Q2

            "carriage\r\nreturn"
            scalar Q3

            "\nstarts with a blank line"
            scalar Q4

            ""
            scalar Q5

            """contains \""" triple quotes"""
            scalar Q6

            "a description long enough to be printed on its own lines between the triple quotes"
            scalar Q7
            """#
        let expected = #"""
            """A music catalog."""
            schema {
              query: Catalog
            }

            """Fetch things"""
            type Catalog {
              """First field"""
              artist(
                """Artist name"""
                name: String!

                """Limit"""
                first: Int = 10
              ): Artist

              """
              Second field,
              on two lines
              """
              album(id: ID!): String
              plain: Int
            }

            """indented on purpose"""
            type Artist {
              name: String
            }

            enum Format {
              """Compact disc"""
              CD
              VINYL

              """
              Tape, with a "quote"
              """
              TAPE
            }

            """
            ends with a quote"
            """
            scalar Q1

            """tab	inside"""
            scalar Q2

            "carriage\r\nreturn"
            scalar Q3

            "\nstarts with a blank line"
            scalar Q4

            """"""
            scalar Q5

            """contains \""" triple quotes"""
            scalar Q6

            """
            a description long enough to be printed on its own lines between the triple quotes
            """
            scalar Q7
            """#
        #expect(printSchema(try build(sdl)) == expected)
    }

    @Test func defaults() throws {
        let sdl = #"""
            type Query {
              search(
                ratio: Float = 1.0
                big: Float = 1e16
                small: Float = 0.00001
                id: ID = "123"
                code: ID = "0042"
                text: String = "line\nbreak \u00e9"
                block: String = """block"""
                tags: [String] = "one"
                matrix: [[Int]] = [1, [2, 3]]
                filter: Filter = {genre: JAZZ, from: 1990}
                kind: Genre = ROCK
                nothing: Int = null
                json: Json = 2.50
                word: Json = WORD
              ): Int
            }
            input Filter { from: Int, to: Int = 2024, genre: Genre, nested: Nested = {} }
            input Nested { depth: Int = 1 }
            enum Genre { ROCK JAZZ }
            scalar Json
            """#
        let expected = #"""
            type Query {
              search(ratio: Float = 1, big: Float = 1e+16, small: Float = 1e-05, id: ID = 123, code: ID = "0042", text: String = "line\nbreak é", block: String = "block", tags: [String] = ["one"], matrix: [[Int]] = [[1], [2, 3]], filter: Filter = {from: 1990, to: 2024, genre: JAZZ, nested: {depth: 1}}, kind: Genre = ROCK, nothing: Int = null, json: Json = 2.5, word: Json = "WORD"): Int
            }

            input Filter {
              from: Int
              to: Int = 2024
              genre: Genre
              nested: Nested = {depth: 1}
            }

            input Nested {
              depth: Int = 1
            }

            enum Genre {
              ROCK
              JAZZ
            }

            scalar Json
            """#
        #expect(printSchema(try build(sdl)) == expected)
    }

    @Test func directivesAndDeprecation() throws {
        let sdl = #"""
            "Cache hints"
            directive @cache(
              "Seconds"
              maxAge: Int
              scope: Scope = PUBLIC
            ) repeatable on FIELD_DEFINITION | OBJECT
            directive @tag(name: String!) on FIELD_DEFINITION | ENUM_VALUE | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION
            directive @include(if: Boolean!) on FIELD
            enum Scope { PUBLIC PRIVATE }
            type Query @cache(maxAge: 5) {
              old: Int @deprecated
              older: Int @deprecated(reason: "Use \"newer\"")
              same: Int @deprecated(reason: "No longer supported")
              args(a: Int @deprecated, b: Int @tag(name: "x")): Int @tag(name: "y")
              when: DateTime
              key(by: Key): Int
            }
            scalar DateTime @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")
            input Key @oneOf { id: ID, isrc: String @deprecated(reason: "gone") }
            """#
        let expected = #"""
            """Cache hints"""
            directive @cache(
              """Seconds"""
              maxAge: Int
              scope: Scope = PUBLIC
            ) repeatable on FIELD_DEFINITION | OBJECT

            directive @tag(name: String!) on FIELD_DEFINITION | ENUM_VALUE | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION

            enum Scope {
              PUBLIC
              PRIVATE
            }

            type Query {
              old: Int @deprecated
              older: Int @deprecated(reason: "Use \"newer\"")
              same: Int @deprecated
              args(a: Int @deprecated, b: Int): Int
              when: DateTime
              key(by: Key): Int
            }

            scalar DateTime @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")

            input Key @oneOf {
              id: ID
              isrc: String @deprecated(reason: "gone")
            }
            """#
        #expect(printSchema(try build(sdl)) == expected)
    }

    @Test func typesAndRoots() throws {
        let sdl = #"""
            schema { query: Q mutation: Mutation subscription: Sub }
            type Q implements Node & Named { id: ID! name: String }
            interface Node { id: ID! }
            interface Named implements Node { id: ID! name: String }
            union Result = Q | Sub
            type Mutation { m(i: In!): Q }
            type Sub { s: Result }
            input In { a: [Int!]! }
            enum E { A B }
            extend enum E { C }
            extend type Q { extra: E }
            """#
        let expected = #"""
            schema {
              query: Q
              mutation: Mutation
              subscription: Sub
            }

            type Q implements Node & Named {
              id: ID!
              name: String
              extra: E
            }

            interface Node {
              id: ID!
            }

            interface Named implements Node {
              id: ID!
              name: String
            }

            union Result = Q | Sub

            type Mutation {
              m(i: In!): Q
            }

            type Sub {
              s: Result
            }

            input In {
              a: [Int!]!
            }

            enum E {
              A
              B
              C
            }
            """#
        #expect(printSchema(try build(sdl)) == expected)
    }

    @Test func schemaDescriptionWithCommonNames() throws {
        let sdl = #"""
            "Described"
            schema { query: Query }
            type Query { a: Int }
            """#
        let expected = #"""
            """Described"""
            schema {
              query: Query
            }

            type Query {
              a: Int
            }
            """#
        #expect(printSchema(try build(sdl)) == expected)
    }
    @Test func defaultThatDoesNotFitItsTypeIsLeftOut() {
        // buildSchema refuses such a schema; one built in code still prints, as graphql-js does.
        let schema = Schema(
            queryType: "Query",
            types: [
                .object(
                    ObjectType(
                        name: "Query",
                        fields: [
                            FieldDefinitionModel(
                                name: "f",
                                arguments: [
                                    InputValueModel(
                                        name: "n", type: .named("Int"), defaultValue: .string(StringValue(value: "ten"))
                                    ),
                                    InputValueModel(
                                        name: "m", type: .nonNull(.named("Int")), defaultValue: .null(NullValue())),
                                ], type: .named("Int"))
                        ]))
            ], directives: DirectiveModel.specifiedDirectives)
        #expect(printSchema(schema) == "type Query {\n  f(n: Int, m: Int!): Int\n}")
        #expect(schema.defaultValueLiteral(of: InputValueModel(name: "x", type: .named("Int"))) == nil)
    }

    @Test func defaultValueLiteralForIntrospection() throws {
        let schema = try build("type Query { f(r: Float = 2.0, i: In = {b: 1}): Int }\ninput In { a: Int = 5, b: Int }")
        let field = try #require(schema.fieldDefinition("f", on: "Query"))
        let ratio = try #require(schema.defaultValueLiteral(of: field.arguments[0]))
        let input = try #require(schema.defaultValueLiteral(of: field.arguments[1]))
        #expect(print(ratio) == "2")
        #expect(print(input) == "{a: 5, b: 1}")
    }

    @Test func floatsPrintLikePython() {
        #expect(pythonFloatRepr(1.0) == "1.0")
        #expect(pythonFloatRepr(1500) == "1500.0")
        #expect(pythonFloatRepr(0.0001) == "0.0001")
        #expect(pythonFloatRepr(0.00001) == "1e-05")
        #expect(pythonFloatRepr(1e15) == "1000000000000000.0")
        #expect(pythonFloatRepr(1e16) == "1e+16")
        #expect(pythonFloatRepr(-2.5e-7) == "-2.5e-07")
        #expect(pythonFloatRepr(12_345_678_901_234_567_168) == "1.2345678901234567e+19")
        #expect(pythonFloatRepr(1.7976931348623157e308) == "1.7976931348623157e+308")
        #expect(pythonFloatRepr(0.1) == "0.1")
        #expect(pythonFloatRepr(123.456) == "123.456")
    }

    @Test func blockStringPrintability() {
        #expect(isPrintableAsBlockString(""))
        #expect(isPrintableAsBlockString("one line"))
        #expect(isPrintableAsBlockString("two\nlines"))
        #expect(isPrintableAsBlockString("first\n  indented second"))
        #expect(!isPrintableAsBlockString("\nleading blank line"))
        #expect(!isPrintableAsBlockString("trailing blank line\n"))
        #expect(isPrintableAsBlockString("first\n  later lines\n  indented"))
        #expect(isPrintableAsBlockString("  one indented line"))
        #expect(!isPrintableAsBlockString("  every line\n  indented"))
        #expect(!isPrintableAsBlockString("carriage\rreturn"))
        #expect(!isPrintableAsBlockString("bell\u{07}"))
    }
}
