import Testing

@testable import GraphQL

// Expected texts were checked against graphql-core 3.2.14 `print_ast` (the conformance
// oracle) on the same documents written as GraphQL text.

// MARK: - Small AST builders, so each test reads close to the document it prints

private func name(_ value: String) -> Name { Name(value) }
private func named(_ value: String) -> NamedType { NamedType(name: Name(value)) }
private func type(_ value: String) -> TypeNode { .named(named(value)) }
private func nonNull(_ inner: TypeNode) -> TypeNode { .nonNull(NonNullType(type: inner)) }
private func list(_ inner: TypeNode) -> TypeNode { .list(ListType(type: inner)) }
private func int(_ text: String) -> Value { .int(IntValue(value: text)) }
private func float(_ text: String) -> Value { .float(FloatValue(value: text)) }
private func string(_ text: String, block: Bool = false) -> Value { .string(StringValue(value: text, block: block)) }
private func description(_ text: String, block: Bool = false) -> StringValue { StringValue(value: text, block: block) }
private func enumValue(_ text: String) -> Value { .enumValue(EnumValue(value: text)) }
private func variable(_ text: String) -> Variable { Variable(name: Name(text)) }
private func listValue(_ values: [Value]) -> Value { .list(ListValue(values: values)) }
private func object(_ fields: [(String, Value)]) -> Value {
    .object(ObjectValue(fields: fields.map { ObjectField(name: Name($0.0), value: $0.1) }))
}
private func argument(_ argName: String, _ value: Value) -> Argument { Argument(name: Name(argName), value: value) }
private func directive(_ directiveName: String, _ arguments: [Argument] = []) -> Directive {
    Directive(name: Name(directiveName), arguments: arguments)
}
private func selections(_ items: [Selection]) -> SelectionSet { SelectionSet(selections: items) }
private func field(
    _ fieldName: String, alias: String? = nil, _ arguments: [Argument] = [], directives: [Directive] = [],
    _ children: [Selection]? = nil
) -> Selection {
    .field(
        Field(
            alias: alias.map { Name($0) }, name: Name(fieldName), arguments: arguments, directives: directives,
            selectionSet: children.map { SelectionSet(selections: $0) }))
}
private func inputValue(
    _ valueName: String, _ valueType: TypeNode, default defaultValue: Value? = nil, directives: [Directive] = [],
    description text: StringValue? = nil
) -> InputValueDefinition {
    InputValueDefinition(
        description: text, name: Name(valueName), type: valueType, defaultValue: defaultValue, directives: directives)
}
private func fieldDefinition(
    _ fieldName: String, _ fieldType: TypeNode, arguments: [InputValueDefinition] = [],
    directives: [Directive] = [], description text: StringValue? = nil
) -> FieldDefinition {
    FieldDefinition(
        description: text, name: Name(fieldName), arguments: arguments, type: fieldType, directives: directives)
}
private func document(_ definitions: [Definition]) -> Document { Document(definitions: definitions) }

@Suite("Printer")
struct PrinterTests {
    // MARK: - Executable documents

    @Test func shorthandQueryPrintsAsBareSelectionSet() {
        let doc = document([.operation(OperationDefinition(operation: .query, selectionSet: selections([field("a")])))])
        #expect(print(doc) == "{\n  a\n}")
    }

    // Fuzzing finding (FuzzParse, "print is not stable"): `enum Genre query { c }` printed as
    // graphql-js does, `enum Genre\n\n{\n  c\n}`, parses back as an enum with a value `c`.
    @Test(arguments: [
        "enum Genre query { c }", "type Artist query { c }", "interface Node @key query { c }",
        "input Filter query { c }", "extend type Artist @key query { c }", "extend enum Genre @x query { c }",
        "extend interface Node implements A query { c }", "extend input Filter @x query { c }",
    ])
    func shorthandAfterADefinitionWithoutItsBodyKeepsTheQueryKeyword(_ text: String) throws {
        let printed = print(try parse(text))
        #expect(printed.hasSuffix("\n\nquery {\n  c\n}"))
        let reparsed = try parse(printed)
        #expect(reparsed.definitions.count == 2)
        #expect(print(reparsed) == printed)
    }

    @Test func shorthandAfterADefinitionWithABodyStaysShorthand() throws {
        #expect(
            print(try parse("enum Genre { ROCK } query { c } scalar Date { d }"))
                == "enum Genre {\n  ROCK\n}\n\n{\n  c\n}\n\nscalar Date\n\n{\n  d\n}")
    }

    @Test func operationsWithNamesVariablesDirectivesAndFragments() {
        let albums = field(
            "albums",
            [
                argument("first", .variable(variable("first"))),
                argument(
                    "sort", object([("by", enumValue("RELEASE_DATE")), ("desc", .boolean(BooleanValue(value: true)))])),
            ],
            directives: [
                directive("include", [argument("if", .boolean(BooleanValue(value: true)))]), directive("live"),
            ],
            [
                .fragmentSpread(FragmentSpread(name: name("AlbumCard"), directives: [directive("defer")])),
                .inlineFragment(
                    InlineFragment(typeCondition: named("LiveAlbum"), selectionSet: selections([field("venue")]))),
                .inlineFragment(
                    InlineFragment(
                        directives: [directive("skip", [argument("if", .boolean(BooleanValue(value: false)))])],
                        selectionSet: selections([field("title")]))),
                .inlineFragment(InlineFragment(selectionSet: selections([field("kind")]))),
            ])
        let operation = OperationDefinition(
            operation: .query, name: name("ArtistPage"),
            variableDefinitions: [
                VariableDefinition(
                    variable: variable("name"), type: nonNull(type("String")), defaultValue: string("Queen")),
                VariableDefinition(
                    variable: variable("first"), type: type("Int"), defaultValue: int("10"),
                    directives: [directive("deprecated")]),
            ],
            directives: [directive("cached", [argument("ttl", int("60"))])],
            selectionSet: selections([
                field(
                    "artist", [argument("name", .variable(variable("name")))],
                    [field("id"), field("name", alias: "displayName"), albums])
            ]))
        let fragment = FragmentDefinition(
            name: name("AlbumCard"), typeCondition: named("Album"), directives: [directive("tracked")],
            selectionSet: selections([field("title"), field("year")]))
        let expected = """
            query ArtistPage($name: String! = "Queen", $first: Int = 10 @deprecated) @cached(ttl: 60) {
              artist(name: $name) {
                id
                displayName: name
                albums(first: $first, sort: {by: RELEASE_DATE, desc: true}) @include(if: true) @live {
                  ...AlbumCard @defer
                  ... on LiveAlbum {
                    venue
                  }
                  ... @skip(if: false) {
                    title
                  }
                  ... {
                    kind
                  }
                }
              }
            }

            fragment AlbumCard on Album @tracked {
              title
              year
            }
            """
        #expect(print(document([.operation(operation), .fragment(fragment)])) == expected)
    }

    @Test func anonymousOperationsKeepTheirKeyword() {
        let anonymous = OperationDefinition(
            operation: .query, variableDefinitions: [VariableDefinition(variable: variable("x"), type: type("Int"))],
            selectionSet: selections([field("a", [argument("x", .variable(variable("x")))])]))
        #expect(print(.operation(anonymous)) == "query ($x: Int) {\n  a(x: $x)\n}")
        let mutation = OperationDefinition(
            operation: .mutation, selectionSet: selections([field("like", [argument("id", int("4"))])]))
        #expect(print(.operation(mutation)) == "mutation {\n  like(id: 4)\n}")
        let subscription = OperationDefinition(
            operation: .subscription, name: name("OnPlay"), directives: [directive("live")],
            selectionSet: selections([field("played", [], [field("title")])]))
        #expect(print(.operation(subscription)) == "subscription OnPlay @live {\n  played {\n    title\n  }\n}")
    }

    // MARK: - Values

    @Test func everyValueKind() {
        #expect(print(int("-12")) == "-12")
        #expect(print(float("1.5e3")) == "1.5e3")
        #expect(print(string("x")) == #""x""#)
        #expect(print(Value.boolean(BooleanValue(value: true))) == "true")
        #expect(print(Value.boolean(BooleanValue(value: false))) == "false")
        #expect(print(Value.null(NullValue())) == "null")
        #expect(print(enumValue("MUSIC")) == "MUSIC")
        #expect(print(listValue([])) == "[]")
        #expect(print(object([])) == "{}")
        #expect(print(listValue([int("1"), listValue([int("2"), .variable(variable("v"))])])) == "[1, [2, $v]]")
        #expect(
            print(object([("nested", object([("deep", listValue([.null(NullValue())]))])), ("n", int("0"))]))
                == "{nested: {deep: [null]}, n: 0}")
    }

    @Test func typeReferences() {
        #expect(print(nonNull(list(nonNull(type("Track"))))) == "[Track!]!")
        #expect(print(list(list(type("Int")))) == "[[Int]]")
    }

    @Test func directiveHelpers() {
        let deprecated = directive("deprecated", [argument("reason", string("use title"))])
        #expect(print(deprecated) == #"@deprecated(reason: "use title")"#)
        #expect(
            print([directive("a"), directive("b", [argument("x", int("1")), argument("y", int("2"))])])
                == "@a @b(x: 1, y: 2)")
        #expect(print([Directive]()) == "")
    }

    @Test func selectionSetHelper() {
        #expect(print(selections([field("a"), field("b", [], [field("c")])])) == "{\n  a\n  b {\n    c\n  }\n}")
        #expect(print(selections([])) == "")
    }

    // MARK: - Argument wrapping at 80 columns

    @Test func fieldArgumentsWrapPastEightyColumns() {
        let a55 = String(repeating: "a", count: 55)
        let a56 = String(repeating: "a", count: 56)
        let catalog = field(
            "catalog", [],
            [
                // `exactly80(term: "a…a", x: 1)` is 80 columns: stays on one line.
                field("exactly80", [argument("term", string(a55)), argument("x", int("1"))]),
                // One more column wraps.
                field("exactly81", [argument("term", string(a56)), argument("x", int("1"))]),
                // The alias counts; directives never wrap and follow the closing parenthesis.
                field(
                    "searchCatalog", alias: "alias",
                    [
                        argument("term", string("bohemian rhapsody")), argument("country", string("JP")),
                        argument("media", enumValue("MUSIC")), argument("n", int("5")),
                    ], directives: [directive("skip", [argument("if", .boolean(BooleanValue(value: false)))])],
                    [field("id")]),
            ])
        let doc = document([.operation(OperationDefinition(operation: .query, selectionSet: selections([catalog])))])
        let expected = """
            {
              catalog {
                exactly80(term: "\(a55)", x: 1)
                exactly81(
                  term: "\(a56)"
                  x: 1
                )
                alias: searchCatalog(
                  term: "bohemian rhapsody"
                  country: "JP"
                  media: MUSIC
                  n: 5
                ) @skip(if: false) {
                  id
                }
              }
            }
            """
        #expect(print(doc) == expected)
    }

    @Test func wrappingIsMeasuredInUnicodeScalars() {
        // 55 two-byte scalars: 80 columns although 135 UTF-8 bytes, so no wrapping.
        let e55 = String(repeating: "é", count: 55)
        let line = print(selections([field("exactly80", [argument("term", string(e55)), argument("x", int("1"))])]))
        #expect(line == "{\n  exactly80(term: \"\(e55)\", x: 1)\n}")
    }

    // MARK: - Block strings

    @Test func blockStringArgumentIsIndentedWithItsField() {
        let note = field("note", [argument("text", string("first line\n  indented\n\nafter blank", block: true))])
        let doc = selections([field("top", [], [note])])
        let expected =
            "{\n  top {\n    note(text: \"\"\"\n    first line\n      indented\n    \n    after blank\n    \"\"\")\n  }\n}"
        #expect(print(doc) == expected)
    }

    @Test(arguments: [
        ("plain", #""""plain""""#),
        (" leading space", #"""" leading space""""#),
        ("\ttab start", "\"\"\"\ttab start\"\"\""),
        ("two\nlines", "\"\"\"\ntwo\nlines\n\"\"\""),
        ("  indented\n  both", "\"\"\"\n  indented\n  both\n\"\"\""),
        ("first\n  second", "\"\"\"\nfirst\n  second\n\"\"\""),
        ("ends with quote\"", "\"\"\"\nends with quote\"\n\"\"\""),
        ("ends with slash\\", "\"\"\"\nends with slash\\\n\"\"\""),
        ("has \"\"\" inside", #""""has \""" inside""""#),
        ("ends \"\"\"", "\"\"\"\nends \\\"\"\"\n\"\"\""),
        (String(repeating: "x", count: 70), "\"\"\"" + String(repeating: "x", count: 70) + "\"\"\""),
        (String(repeating: "x", count: 71), "\"\"\"\n" + String(repeating: "x", count: 71) + "\n\"\"\""),
        ("", "\"\"\"\"\"\""),
        ("a\r\nb\rc", "\"\"\"\na\r\nb\rc\n\"\"\""),
        ("line\n\nblank", "\"\"\"\nline\n\nblank\n\"\"\""),
    ])
    func blockStringLayout(value: String, printed: String) {
        #expect(printBlockString(value) == printed)
    }

    @Test func minimizedBlockStrings() {
        #expect(printBlockString("two\nlines", minimize: true) == "\"\"\"two\nlines\"\"\"")
        #expect(printBlockString("  indented\n  both", minimize: true) == "\"\"\"\n  indented\n  both\"\"\"")
        #expect(printBlockString("ends with quote\"", minimize: true) == "\"\"\"ends with quote\"\n\"\"\"")
        #expect(printBlockString("ends \"\"\"", minimize: true) == #""""ends \"""""""#)
    }

    // MARK: - Quoted strings

    @Test func quotedStringEscapes() {
        #expect(printString(#"quote " and \ back"#) == #""quote \" and \\ back""#)
        #expect(printString("\u{08}\t\n\u{0C}\r") == #""\b\t\n\f\r""#)
        #expect(
            printString("\u{00}\u{01}\u{0B}\u{1F}\u{7F}\u{80}\u{9F}\u{A0}")
                == "\"\\u0000\\u0001\\u000B\\u001F\\u007F\\u0080\\u009F\u{A0}\"")
        #expect(printString("é ü 🎸") == "\"é ü 🎸\"")
    }

    // MARK: - Descriptions on executable definitions

    @Test func descriptionsOnOperationsFragmentsAndVariables() {
        let artist = OperationDefinition(
            description: description("Loads an artist"), operation: .query, name: name("Artist"),
            variableDefinitions: [
                VariableDefinition(
                    description: description("the artist name"), variable: variable("name"),
                    type: nonNull(type("String"))),
                VariableDefinition(variable: variable("n"), type: type("Int")),
            ],
            selectionSet: selections([field("artist", [argument("name", .variable(variable("name")))], [field("id")])]))
        let card = FragmentDefinition(
            description: description("A card", block: true), name: name("Card"), typeCondition: named("Album"),
            selectionSet: selections([field("title")]))
        let described = OperationDefinition(
            description: description("desc"), operation: .query, selectionSet: selections([field("a")]))
        let expected = """
            "Loads an artist"
            query Artist(
            "the artist name"
            $name: String!
            $n: Int
            ) {
              artist(name: $name) {
                id
              }
            }

            \"\"\"A card\"\"\"
            fragment Card on Album {
              title
            }

            "desc"
            query {
              a
            }
            """
        #expect(print(document([.operation(artist), .fragment(card), .operation(described)])) == expected)
    }

    // MARK: - Type system definitions and extensions

    @Test func everySchemaDefinitionForm() {
        let doc = document([
            .schema(
                SchemaDefinition(
                    description: description("The schema"), directives: [directive("entry")],
                    operationTypes: [
                        OperationTypeDefinition(operation: .query, type: named("Query")),
                        OperationTypeDefinition(operation: .mutation, type: named("Mutation")),
                    ])),
            .scalarType(
                ScalarTypeDefinition(
                    description: description("An instant"), name: name("DateTime"),
                    directives: [directive("specifiedBy", [argument("url", string("https://example.com/dt"))])])),
            .objectType(
                ObjectTypeDefinition(
                    description: description("An album\nwith two lines", block: true), name: name("Album"),
                    interfaces: [named("Node"), named("Creative")],
                    directives: [directive("key", [argument("fields", string("id"))])],
                    fields: [
                        fieldDefinition("id", nonNull(type("ID")), description: description("The id")),
                        fieldDefinition(
                            "tracks", nonNull(list(nonNull(type("Track")))),
                            arguments: [
                                inputValue("first", type("Int"), default: int("10")),
                                inputValue("after", type("String"), description: description("cursor")),
                            ]),
                        fieldDefinition(
                            "cover", type("String"),
                            arguments: [
                                inputValue(
                                    "size", type("Int"), default: int("300"),
                                    directives: [directive("deprecated", [argument("reason", string("fixed"))])])
                            ], directives: [directive("deprecated")]),
                    ])),
            .interfaceType(
                InterfaceTypeDefinition(
                    name: name("Creative"), interfaces: [named("Node")],
                    fields: [fieldDefinition("title", type("String"))])),
            .unionType(
                UnionTypeDefinition(
                    name: name("Media"), directives: [directive("tag")], types: [named("Album"), named("Video")])),
            .enumType(
                EnumTypeDefinition(
                    name: name("Format"),
                    values: [
                        EnumValueDefinition(description: description("compact disc"), name: name("CD")),
                        EnumValueDefinition(name: name("VINYL"), directives: [directive("deprecated")]),
                    ])),
            .inputObjectType(
                InputObjectTypeDefinition(
                    name: name("AlbumFilter"), directives: [directive("oneOf")],
                    fields: [
                        inputValue("year", type("Int"), default: int("2000")),
                        inputValue("title", type("String"), directives: [directive("trim")]),
                    ])),
            .directive(
                DirectiveDefinition(
                    description: description("Caches"), name: name("cached"),
                    arguments: [
                        inputValue("ttl", type("Int"), default: int("60")), inputValue("scope", type("Scope")),
                    ],
                    repeatable: true, locations: [name("FIELD"), name("QUERY")])),
            .directive(DirectiveDefinition(name: name("trim"), locations: [name("INPUT_FIELD_DEFINITION")])),
            .directive(
                DirectiveDefinition(
                    name: name("multi"), arguments: [inputValue("a", type("Int"), description: description("doc"))],
                    locations: [name("FIELD")])),
            .schemaExtension(
                SchemaExtension(
                    directives: [directive("extra")],
                    operationTypes: [OperationTypeDefinition(operation: .subscription, type: named("Subscription"))])),
            .schemaExtension(SchemaExtension(directives: [directive("only")])),
            .scalarTypeExtension(ScalarTypeExtension(name: name("DateTime"), directives: [directive("tz")])),
            .objectTypeExtension(
                ObjectTypeExtension(
                    name: name("Album"), interfaces: [named("Reviewed")], directives: [directive("x")],
                    fields: [fieldDefinition("rating", type("Float"))])),
            .interfaceTypeExtension(InterfaceTypeExtension(name: name("Creative"), directives: [directive("y")])),
            .unionTypeExtension(UnionTypeExtension(name: name("Media"), types: [named("Podcast")])),
            .enumTypeExtension(
                EnumTypeExtension(name: name("Format"), values: [EnumValueDefinition(name: name("CASSETTE"))])),
            .inputObjectTypeExtension(
                InputObjectTypeExtension(name: name("AlbumFilter"), fields: [inputValue("label", type("String"))])),
            .objectType(ObjectTypeDefinition(name: name("Empty"))),
        ])
        let expected = """
            "The schema"
            schema @entry {
              query: Query
              mutation: Mutation
            }

            "An instant"
            scalar DateTime @specifiedBy(url: "https://example.com/dt")

            \"\"\"
            An album
            with two lines
            \"\"\"
            type Album implements Node & Creative @key(fields: "id") {
              "The id"
              id: ID!
              tracks(
                first: Int = 10
                "cursor"
                after: String
              ): [Track!]!
              cover(size: Int = 300 @deprecated(reason: "fixed")): String @deprecated
            }

            interface Creative implements Node {
              title: String
            }

            union Media @tag = Album | Video

            enum Format {
              "compact disc"
              CD
              VINYL @deprecated
            }

            input AlbumFilter @oneOf {
              year: Int = 2000
              title: String @trim
            }

            "Caches"
            directive @cached(ttl: Int = 60, scope: Scope) repeatable on FIELD | QUERY

            directive @trim on INPUT_FIELD_DEFINITION

            directive @multi(
              "doc"
              a: Int
            ) on FIELD

            extend schema @extra {
              subscription: Subscription
            }

            extend schema @only

            extend scalar DateTime @tz

            extend type Album implements Reviewed @x {
              rating: Float
            }

            extend interface Creative @y

            extend union Media = Podcast

            extend enum Format {
              CASSETTE
            }

            extend input AlbumFilter {
              label: String
            }

            type Empty
            """
        #expect(print(doc) == expected)
    }

    @Test func multiLineDescriptionsInsideBlocksAreIndented() {
        let track = ObjectTypeDefinition(
            name: name("Track"),
            fields: [
                fieldDefinition(
                    "title", type("String"),
                    arguments: [
                        inputValue("locale", type("String"), description: description("two\nlines", block: true))
                    ],
                    description: description("The title\nas printed", block: true))
            ])
        let expected = """
            type Track {
              \"\"\"
              The title
              as printed
              \"\"\"
              title(
                \"\"\"
                two
                lines
                \"\"\"
                locale: String
              ): String
            }
            """
        #expect(print(.objectType(track)) == expected)
    }
}
