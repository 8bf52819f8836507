import Testing

@testable import GraphQL

// Every SDL validation rule and schema validation check, with exact messages and locations.
// Expected values are graphql-core 3.2.14's for the same SDL (quotes as graphql-js writes
// them), except where graphql-core stops at a Python type error before validating (input
// and output positions, implementing or including a type of the wrong kind): there the
// values follow graphql-js's validateSchema. Invalid default values are our addition.

/// The build errors of `sdl` as `"message @ line:column, …"`; empty when it builds.
private func errors(_ sdl: String) -> [String] {
    do {
        _ = try buildSchema(sdl: sdl)
        return []
    } catch {
        return error.errors.map { e in
            e.message + " @ " + e.locations.map { "\($0.line):\($0.column)" }.joined(separator: ", ")
        }
    }
}

@Suite struct ValidateSchemaTests {
    // MARK: - SDL validation rules

    @Test func loneSchemaDefinition() {
        let sdl = """
            schema { query: Query }
            schema { query: Query }
            type Query { a: Int }
            """
        #expect(
            errors(sdl) == [
                "Must provide only one schema definition. @ 2:1",
                "There can be only one query type in schema. @ 1:10, 2:10",
            ])
    }

    @Test func uniqueOperationTypes() {
        let sdl = """
            schema { query: Query query: Query }
            extend schema { query: Query mutation: Query }
            type Query { a: Int }
            """
        #expect(
            errors(sdl) == [
                "There can be only one query type in schema. @ 1:10, 1:23",
                "There can be only one query type in schema. @ 1:10, 2:17",
            ])
    }

    @Test func uniqueTypeNames() {
        let sdl = """
            type Query { a: Int }
            type Query { b: Int }
            scalar Query
            """
        #expect(
            errors(sdl) == [
                "There can be only one type named \"Query\". @ 1:6, 2:6",
                "There can be only one type named \"Query\". @ 1:6, 3:8",
            ])
    }

    @Test func uniqueEnumValueNames() {
        let sdl = """
            type Query { a: E }
            enum E { A B A }
            extend enum E { B }
            """
        #expect(
            errors(sdl) == [
                "Enum value \"E.A\" can only be defined once. @ 2:10, 2:14",
                "Enum value \"E.B\" can only be defined once. @ 2:12, 3:17",
            ])
    }

    @Test func uniqueFieldDefinitionNames() {
        let sdl = """
            type Query { a: Int a: String }
            extend type Query { a: Int }
            input In { x: Int x: Int }
            """
        #expect(
            errors(sdl) == [
                "Field \"Query.a\" can only be defined once. @ 1:14, 1:21",
                "Field \"Query.a\" can only be defined once. @ 1:14, 2:21",
                "Field \"In.x\" can only be defined once. @ 3:12, 3:19",
            ])
    }

    @Test func uniqueArgumentDefinitionNames() {
        let sdl = """
            type Query { f(a: Int, a: Int, b: Int, b: Int): Int }
            directive @d(x: Int, x: Int) on FIELD
            """
        #expect(
            errors(sdl) == [
                "Argument \"Query.f(a:)\" can only be defined once. @ 1:16, 1:24",
                "Argument \"Query.f(b:)\" can only be defined once. @ 1:32, 1:40",
                "Argument \"@d(x:)\" can only be defined once. @ 2:14, 2:22",
            ])
    }

    @Test func uniqueDirectiveNames() {
        let sdl = """
            directive @d on FIELD
            directive @d on QUERY
            type Query { a: Int }
            """
        #expect(
            errors(sdl) == [
                "There can be only one directive named \"@d\". @ 1:12, 2:12"
            ])
    }

    @Test func knownTypeNames() {
        let sdl = """
            type Query { a: Strin b: Artst c(x: Inpt): Int }
            type Artist { n: Int }
            input Input { x: Int }
            union U = Album
            """
        #expect(
            errors(sdl) == [
                "Unknown type \"Strin\". Did you mean \"String\"? @ 1:17",
                "Unknown type \"Artst\". Did you mean \"Artist\"? @ 1:26",
                "Unknown type \"Inpt\". Did you mean \"Input\" or \"Int\"? @ 1:37",
                "Unknown type \"Album\". @ 4:11",
            ])
    }

    @Test func knownDirectives() {
        let sdl = """
            type Query @unknown { a: Int @include(if: true) b: Int @deprecated @specifiedBy(url: "x") }
            scalar S @deprecated
            enum E { A @deprecated }
            input I { x: Int @deprecated @onInputField }
            extend input I { y: Int @onInputField }
            directive @onInputField on INPUT_FIELD_DEFINITION
            """
        #expect(
            errors(sdl) == [
                "Unknown directive \"@unknown\". @ 1:12",
                "Directive \"@include\" may not be used on FIELD_DEFINITION. @ 1:30",
                "Directive \"@specifiedBy\" may not be used on FIELD_DEFINITION. @ 1:68",
                "Directive \"@deprecated\" may not be used on SCALAR. @ 2:10",
                "Directive \"@onInputField\" may not be used on ARGUMENT_DEFINITION. @ 5:25",
            ])
    }

    @Test func uniqueDirectivesPerLocation() {
        let sdl = """
            directive @once on OBJECT | FIELD_DEFINITION
            directive @many repeatable on OBJECT
            type Query @once @many @many { a: Int @once @once }
            extend type Query @once
            """
        #expect(
            errors(sdl) == [
                "The directive \"@once\" can only be used once at this location. @ 3:39, 3:45",
                "The directive \"@once\" can only be used once at this location. @ 3:12, 4:19",
            ])
    }

    @Test func possibleTypeExtensions() {
        let sdl = """
            type Query { a: Int }
            extend type Qery { b: Int }
            extend scalar Query @specifiedBy(url: "u")
            extend union Missing = Query
            """
        #expect(
            errors(sdl) == [
                "Cannot extend type \"Qery\" because it is not defined. Did you mean \"Query\"? @ 2:13",
                "Cannot extend non-scalar type \"Query\". @ 1:1, 3:1",
                "Cannot extend type \"Missing\" because it is not defined. @ 4:14",
            ])
    }

    @Test func knownArgumentNamesOnDirectives() {
        let sdl = """
            directive @d(limit: Int) on FIELD_DEFINITION
            type Query { a: Int @deprecated(reson: "x") b: Int @d(limt: 1, other: 2) }
            """
        #expect(
            errors(sdl) == [
                "Unknown argument \"reson\" on directive \"@deprecated\". Did you mean \"reason\"? @ 2:33",
                "Unknown argument \"limt\" on directive \"@d\". Did you mean \"limit\"? @ 2:55",
                "Unknown argument \"other\" on directive \"@d\". @ 2:64",
            ])
    }

    @Test func uniqueArgumentNames() {
        let sdl = "type Query { a: Int @deprecated(reason: \"x\", reason: \"y\") }"
        #expect(
            errors(sdl) == [
                "There can be only one argument named \"reason\". @ 1:33, 1:46"
            ])
    }

    @Test func uniqueInputFieldNames() {
        let sdl = """
            directive @d(v: In) on FIELD_DEFINITION
            input In { a: Int b: In }
            type Query { a(x: In = {a: 1, a: 2, b: {a: 1, a: 3}}): Int @d(v: {a: 1, a: 1}) }
            """
        #expect(
            errors(sdl) == [
                "There can be only one input field named \"a\". @ 3:25, 3:31",
                "There can be only one input field named \"a\". @ 3:41, 3:47",
                "There can be only one input field named \"a\". @ 3:67, 3:73",
            ])
    }

    @Test func providedRequiredArgumentsOnDirectives() {
        let sdl = """
            directive @d(req: Int!, opt: Int, def: Int! = 1) on FIELD_DEFINITION
            type Query { a: Int @d b: Int @d(req: 1) }
            scalar S @specifiedBy
            """
        #expect(
            errors(sdl) == [
                "Directive \"@d\" argument \"req\" of type \"Int!\" is required, but it was not provided. @ 2:21",
                "Directive \"@specifiedBy\" argument \"url\" of type \"String!\" is required, but it was not provided. @ 3:10",
            ])
    }

    // MARK: - Schema validation

    @Test func noQueryRoot() {
        let sdl = "type Foo { a: Int }"
        #expect(
            errors(sdl) == [
                "Query root type must be provided. @ "
            ])
    }

    @Test func schemaWithoutQuery() {
        let sdl = """
            schema { mutation: M }
            type M { a: Int }
            """
        #expect(
            errors(sdl) == [
                "Query root type must be provided. @ 1:1"
            ])
    }

    @Test func rootsNotObjects() {
        let sdl = """
            schema { query: E mutation: I subscription: U }
            enum E { A }
            input I { a: Int }
            union U = T
            type T { a: Int }
            """
        #expect(
            errors(sdl) == [
                "Query root type must be Object type, it cannot be E. @ 1:17",
                "Mutation root type must be Object type if provided, it cannot be I. @ 1:29",
                "Subscription root type must be Object type if provided, it cannot be U. @ 1:45",
            ])
    }

    @Test func defaultRootNotObject() {
        let sdl = "enum Query { A }"
        #expect(
            errors(sdl) == [
                "Query root type must be Object type, it cannot be Query. @ 1:1"
            ])
    }

    @Test func reservedNames() {
        let sdl = """
            type Query { __a: Int, b(__x: Int): Int }
            type __T { a: Int }
            enum E { __V }
            input I { __f: Int }
            directive @__d(__a: Int) on FIELD
            """
        #expect(
            errors(sdl) == [
                "Name \"__d\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 5:1",
                "Name \"__a\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 5:16",
                "Name \"__a\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 1:14",
                "Name \"__x\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 1:26",
                "Name \"__T\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 2:1",
                "Name \"__V\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 3:10",
                "Name \"__f\" must not begin with \"__\", which is reserved by GraphQL introspection. @ 4:11",
            ])
    }

    @Test func emptyTypes() {
        let sdl = """
            type Query
            extend type Query @d
            directive @d on OBJECT
            interface I
            enum E
            input In
            union U
            """
        #expect(
            errors(sdl) == [
                "Type Query must define one or more fields. @ 1:1, 2:1",
                "Type I must define one or more fields. @ 4:1",
                "Enum type E must define one or more values. @ 5:1",
                "Input Object type In must define one or more fields. @ 6:1",
                "Union type U must define one or more member types. @ 7:1",
            ])
    }

    @Test func inputOutputPositions() {
        let sdl = """
            type Query { a: In, b(x: Query): Int }
            input In { c: Query }
            """
        #expect(
            errors(sdl) == [
                "The type of Query.a must be Output Type but got: In. @ 1:17",
                "The type of Query.b(x:) must be Input Type but got: Query. @ 1:26",
                "The type of In.c must be Input Type but got: Query. @ 2:15",
            ])
    }

    @Test func requiredDeprecated() {
        let sdl = """
            type Query { a(x: Int! @deprecated): Int }
            input In { y: Int! @deprecated(reason: "r") z: Int! = 1 @deprecated }
            directive @d(w: String! @deprecated) on FIELD
            """
        #expect(
            errors(sdl) == [
                "Required argument @d(w:) cannot be deprecated. @ 3:25, 3:17",
                "Required argument Query.a(x:) cannot be deprecated. @ 1:24, 1:19",
                "Required input field In.y cannot be deprecated. @ 2:20, 2:15",
            ])
    }

    @Test func implementsNonInterfacesAndTwice() {
        let sdl = """
            type Query implements Query & Node & Node { id: ID }
            interface Node { id: ID }
            interface Self implements Self { id: ID }
            """
        #expect(
            errors(sdl) == [
                "Type Query must only implement Interface types, it cannot implement Query. @ 1:23",
                "Type Query can only implement Node once. @ 1:31, 1:38",
                "Type Self cannot implement itself because it would create a circular reference. @ 3:27",
            ])
    }

    @Test func interfaceFieldChecks() {
        let sdl = """
            interface Node { id: ID!, name(lang: String): String, tags: [String] }
            type Query implements Node { id: ID, name(lang: Int, strict: Boolean!): String, tags: [String!]! }
            type Other implements Node { name: String, tags: [String] }
            """
        #expect(
            errors(sdl) == [
                "Interface field Node.id expects type ID! but Query.id is type ID. @ 1:22, 2:34",
                "Interface field argument Node.name(lang:) expects type String but Query.name(lang:) is type Int. @ 1:38, 2:49",
                "Object field Query.name includes required argument strict that is missing from the Interface field Node.name. @ 2:54, 1:27",
                "Interface field Node.id expected but Other does not provide it. @ 1:18, 3:1",
                "Interface field argument Node.name(lang:) expected but Other.name does not provide it. @ 1:32, 3:30",
            ])
    }

    @Test func interfaceAncestors() {
        let sdl = """
            interface A { x: Int }
            interface B implements A { x: Int }
            type Query implements B { x: Int }
            interface C implements D { x: Int }
            interface D implements C { x: Int }
            """
        #expect(
            errors(sdl) == [
                "Type Query must implement A because it is implemented by B. @ 2:24, 3:23",
                "Type C cannot implement D because it would create a circular reference. @ 5:24, 4:24",
                "Type D cannot implement C because it would create a circular reference. @ 4:24, 5:24",
            ])
    }

    @Test func covariantImplementationIsValid() {
        let sdl = """
            interface Node { n: Node, l: [Node] }
            type Query implements Node { n: Query!, l: [Query!]! }
            union U = Query
            interface Holder { u: U }
            type H implements Holder { u: Query }
            """
        #expect(errors(sdl) == [])
    }

    @Test func unionMembers() {
        let sdl = """
            type Query { u: U }
            union U = Query | Query | E | I
            enum E { A }
            interface I { a: Int }
            """
        #expect(
            errors(sdl) == [
                "Union type U can only include type Query once. @ 2:11, 2:19",
                "Union type U can only include Object types, it cannot include E. @ 2:27",
                "Union type U can only include Object types, it cannot include I. @ 2:31",
            ])
    }

    @Test func inputObjectCycles() {
        let sdl = """
            type Query { a: Int }
            input A { b: B! }
            input B { a: A! c: C }
            input C { c: C! self: [C!]! }
            """
        #expect(
            errors(sdl) == [
                "Cannot reference Input Object \"A\" within itself through a series of non-null fields: \"b.a\". @ 2:11, 3:11",
                "Cannot reference Input Object \"C\" within itself through a series of non-null fields: \"c\". @ 4:11",
            ])
    }

    @Test func oneOfFields() {
        let sdl = """
            type Query { a: Int }
            input O @oneOf { a: Int!, b: Int = 1, c: String }
            """
        #expect(
            errors(sdl) == [
                "OneOf input field O.a must be nullable. @ 2:21",
                "OneOf input field O.b cannot have a default value. @ 2:27",
            ])
    }
    @Test func extensionBeforeDefinitionLocations() {
        let sdl = """
            extend type Query @d
            directive @d on OBJECT
            type Query
            extend union U = Query
            union U = Query
            """
        #expect(
            errors(sdl) == [
                "Type Query must define one or more fields. @ 3:1, 1:1",
                "Union type U can only include type Query once. @ 5:11, 4:18",
            ])
    }

    @Test func interfaceFieldMissingAcrossExtensions() {
        let sdl = """
            interface Node { id: ID! }
            type Query { a: Int }
            extend type Query implements Node
            extend type Query { b: Int }
            """
        #expect(
            errors(sdl) == ["Interface field Node.id expected but Query does not provide it. @ 1:18, 2:1, 3:1, 4:1"])
    }

    // MARK: - Values checked while building

    @Test func invalidDefaultValues() {
        let sdl = """
            type Query { tracks(first: Int = "ten", after: ID = 1.5, kind: Kind = ROCK, in: In = {x: 1}): Int }
            enum Kind { POP }
            input In { x: Int!, y: Float = true, z: [Int] = ["a"], w: In2 = {a: 1} }
            input In2 { a: Int, b: String! }
            directive @d(n: Boolean = 1) on FIELD
            """
        #expect(
            errors(sdl) == [
                "Argument @d(n:) has invalid default value: 1. @ 5:27",
                "Argument Query.tracks(first:) has invalid default value: \"ten\". @ 1:34",
                "Argument Query.tracks(after:) has invalid default value: 1.5. @ 1:53",
                "Argument Query.tracks(kind:) has invalid default value: ROCK. @ 1:71",
                "Input field In.y has invalid default value: true. @ 3:32",
                "Input field In.z has invalid default value: [\"a\"]. @ 3:49",
                "Input field In.w has invalid default value: {a: 1}. @ 3:65",
            ])
    }

    @Test func validDefaultValues() {
        let sdl = """
            type Query { f(a: [Int] = 1, b: In = {x: 1}, c: ID = 7, d: Float = 2, e: Json = {any: [THING]}, g: In = null): Int }
            input In { x: Int!, y: String = "s", z: In }
            scalar Json
            """
        #expect(errors(sdl) == [])
    }

    @Test func invalidDirectiveArgumentValues() {
        let sdl = """
            type Query { a: Int @deprecated(reason: 5) }
            scalar Url @specifiedBy(url: null)
            scalar Uri @specifiedBy(url: ["x"])
            """
        #expect(
            errors(sdl) == [
                "Argument \"reason\" has invalid value 5. @ 1:41",
                "Argument \"url\" of non-null type \"String!\" must not be null. @ 2:30",
                "Argument \"url\" has invalid value [\"x\"]. @ 3:30",
            ])
    }

    @Test func schemaBuiltInCodeIsValidatedWithoutLocations() {
        let schema = Schema(
            queryType: "Query",
            types: [
                .object(ObjectType(name: "Query")),
                .enumType(EnumType(name: "__Mine", values: [EnumValueModel(name: "A")])),
            ],
            directives: DirectiveModel.specifiedDirectives)
        #expect(
            validateSchema(schema).map(\.message) == [
                "Type Query must define one or more fields.",
                "Name \"__Mine\" must not begin with \"__\", which is reserved by GraphQL introspection.",
            ])
        #expect(validateSchema(schema).allSatisfy { $0.locations.isEmpty })
    }

    // MARK: - Suggestions

    @Test func suggestionListOrdersByDistanceThenNaturally() {
        #expect(
            Suggestions.list("Artst", ["Artist", "Album", "Art", "artist2", "Artists"]) == [
                "Artist", "Art", "Artists", "artist2",
            ])
        #expect(Suggestions.list("item", ["item10", "item2", "ITEM"]) == ["ITEM", "item2", "item10"])
        #expect(Suggestions.list("ab", ["ba"]) == ["ba"])
        #expect(Suggestions.naturalCompare("a2", "a10") < 0)
        #expect(Suggestions.naturalCompare("a10", "a2") > 0)
    }

    @Test func didYouMeanNamesAtMostFive() {
        #expect(Suggestions.didYouMean([]) == "")
        #expect(Suggestions.didYouMean(["A"]) == " Did you mean \"A\"?")
        #expect(Suggestions.didYouMean(["A", "B"]) == " Did you mean \"A\" or \"B\"?")
        #expect(
            Suggestions.didYouMean(["A", "B", "C", "D", "E", "F"])
                == " Did you mean \"A\", \"B\", \"C\", \"D\", or \"E\"?")
    }
}
