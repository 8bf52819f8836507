import Testing

@testable import GraphQL

/// The parser (spec §2 and §3 grammar): AST shapes with every node's values and byte
/// range (through `dumpParse`, see ASTDump.swift), and every syntax error path with
/// graphql-js's message and the line and column of the offending token.
@Suite struct ParserTests {
    // MARK: - Executable documents

    @Test func shorthandQuery() {
        #expect(
            dumpParse("{ artist { name } }") == """
                Document @0..19
                  OperationDefinition query @0..19
                    SelectionSet @0..19
                      Field artist @2..17
                        name artist @2..8
                        SelectionSet @9..17
                          Field name @11..15
                            name name @11..15
                """)
    }

    @Test func namedQueryWithVariablesDirectivesAliasesAndArguments() {
        #expect(
            dumpParse(
                "query Albums($id: ID!, $first: Int = 5 @cap) @live { a: artist(id: $id) @include(if: true) { albums(first: $first) { title } } }"
            ) == """
                Document @0..128
                  OperationDefinition query @0..128
                    name Albums @6..12
                    VariableDefinition @13..21
                      Variable $id @13..16
                      NonNullType @18..21
                        NamedType ID @18..20
                    VariableDefinition @23..43
                      Variable $first @23..29
                      NamedType Int @31..34
                      default IntValue 5 @37..38
                      Directive @cap @39..43
                    Directive @live @45..50
                    SelectionSet @51..128
                      Field a: artist @53..126
                        alias a @53..54
                        name artist @56..62
                        Argument id @63..70
                          Variable $id @67..70
                        Directive @include @72..90
                          Argument if @81..89
                            BooleanValue true @85..89
                        SelectionSet @91..126
                          Field albums @93..124
                            name albums @93..99
                            Argument first @100..113
                              Variable $first @107..113
                            SelectionSet @115..124
                              Field title @117..122
                                name title @117..122
                """)
    }

    @Test func descriptionsOnOperationsAndVariables() {
        #expect(
            dumpParse(#""Fetch one" query One("the id" $id: ID) { x }"#) == """
                Document @0..45
                  OperationDefinition query @0..45
                    description string "Fetch one" @0..11
                    name One @18..21
                    VariableDefinition @22..38
                      description string "the id" @22..30
                      Variable $id @31..34
                      NamedType ID @36..38
                    SelectionSet @40..45
                      Field x @42..43
                        name x @42..43
                """)
    }

    @Test func mutationAndSubscription() {
        #expect(
            dumpParse("mutation { rate(v: 1) } subscription S { onPlay { id } }") == """
                Document @0..56
                  OperationDefinition mutation @0..23
                    SelectionSet @9..23
                      Field rate @11..21
                        name rate @11..15
                        Argument v @16..20
                          IntValue 1 @19..20
                  OperationDefinition subscription @24..56
                    name S @37..38
                    SelectionSet @39..56
                      Field onPlay @41..54
                        name onPlay @41..47
                        SelectionSet @48..54
                          Field id @50..52
                            name id @50..52
                """)
    }

    @Test func fragmentSpreadsAndInlineFragments() {
        #expect(
            dumpParse("{ ...Bits ... on Album @skip(if: false) { title } ... @include(if: $c) { id } ... { y } }")
                == """
                Document @0..89
                  OperationDefinition query @0..89
                    SelectionSet @0..89
                      FragmentSpread ...Bits @2..9
                      InlineFragment on Album @10..49
                        Directive @skip @23..39
                          Argument if @29..38
                            BooleanValue false @33..38
                        SelectionSet @40..49
                          Field title @42..47
                            name title @42..47
                      InlineFragment @50..77
                        Directive @include @54..70
                          Argument if @63..69
                            Variable $c @67..69
                        SelectionSet @71..77
                          Field id @73..75
                            name id @73..75
                      InlineFragment @78..87
                        SelectionSet @82..87
                          Field y @84..85
                            name y @84..85
                """)
    }

    @Test func fragmentDefinitionWithBlockDescription() {
        #expect(
            dumpParse(#""""Card""" fragment Bits on Artist @x { name }"#) == """
                Document @0..46
                  FragmentDefinition @0..46
                    description block "Card" @0..10
                    name Bits @20..24
                    on Artist @28..34
                    Directive @x @35..37
                    SelectionSet @38..46
                      Field name @40..44
                        name name @40..44
                """)
    }

    @Test func everyValueKind() {
        #expect(
            dumpParse(
                #"{ f(a: 1, b: -2.5e3, c: "s", d: """  blk""", e: true, f: false, g: null, h: ROCK, i: [1, [2]], j: {k: $v, l: {}}, m: []) }"#
            ) == """
                Document @0..122
                  OperationDefinition query @0..122
                    SelectionSet @0..122
                      Field f @2..120
                        name f @2..3
                        Argument a @4..8
                          IntValue 1 @7..8
                        Argument b @10..19
                          FloatValue -2.5e3 @13..19
                        Argument c @21..27
                          StringValue "s" @24..27
                        Argument d @29..43
                          StringValue block "  blk" @32..43
                        Argument e @45..52
                          BooleanValue true @48..52
                        Argument f @54..62
                          BooleanValue false @57..62
                        Argument g @64..71
                          NullValue @67..71
                        Argument h @73..80
                          EnumValue ROCK @76..80
                        Argument i @82..93
                          ListValue @85..93
                            IntValue 1 @86..87
                            ListValue @89..92
                              IntValue 2 @90..91
                        Argument j @95..112
                          ObjectValue @98..112
                            ObjectField k @99..104
                              Variable $v @102..104
                            ObjectField l @106..111
                              ObjectValue @109..111
                        Argument m @114..119
                          ListValue @117..119
                """)
    }

    @Test func keywordsAreOrdinaryNamesInSelections() {
        #expect(
            dumpParse("{ query mutation subscription fragment on: schema type: extend true: null }") == """
                Document @0..75
                  OperationDefinition query @0..75
                    SelectionSet @0..75
                      Field query @2..7
                        name query @2..7
                      Field mutation @8..16
                        name mutation @8..16
                      Field subscription @17..29
                        name subscription @17..29
                      Field fragment @30..38
                        name fragment @30..38
                      Field on: schema @39..49
                        alias on @39..41
                        name schema @43..49
                      Field type: extend @50..62
                        alias type @50..54
                        name extend @56..62
                      Field true: null @63..73
                        alias true @63..67
                        name null @69..73
                """)
    }

    @Test func nestedListAndNonNullTypes() {
        #expect(
            dumpParse("query Q($l: [[Int!]]! = [[1]]) { x }") == """
                Document @0..36
                  OperationDefinition query @0..36
                    name Q @6..7
                    VariableDefinition @8..29
                      Variable $l @8..10
                      NonNullType @12..21
                        ListType @12..20
                          ListType @13..19
                            NonNullType @14..18
                              NamedType Int @14..17
                      default ListValue @24..29
                        ListValue @25..28
                          IntValue 1 @26..27
                    SelectionSet @31..36
                      Field x @33..34
                        name x @33..34
                """)
    }

    // MARK: - Type system documents

    @Test func schemaDefinition() {
        #expect(
            dumpParse("schema @a { query: Q mutation: M subscription: S }") == """
                Document @0..50
                  SchemaDefinition @0..50
                    Directive @a @7..9
                    OperationTypeDefinition query: Q @12..20
                    OperationTypeDefinition mutation: M @21..32
                    OperationTypeDefinition subscription: S @33..48
                """)
    }

    @Test func schemaWithBlockDescription() {
        #expect(
            dumpParse(#""""The API""" schema { query: Q }"#) == """
                Document @0..33
                  SchemaDefinition @0..33
                    description block "The API" @0..13
                    OperationTypeDefinition query: Q @23..31
                """)
    }

    @Test func scalarWithDescriptionAndDirective() {
        #expect(
            dumpParse(#""A date" scalar Date @specifiedBy(url: "u")"#) == """
                Document @0..43
                  ScalarTypeDefinition @0..43
                    description string "A date" @0..8
                    name Date @16..20
                    Directive @specifiedBy @21..43
                      Argument url @34..42
                        StringValue "u" @39..42
                """)
    }

    @Test func objectTypeWithLeadingAmpersandFieldsArgumentsAndDefaults() {
        #expect(
            dumpParse(
                #"type Album implements & Node & Media @key(f: "id") { "t" title(upper: Boolean = false @d): String! tracks: [Track] }"#
            ) == """
                Document @0..116
                  ObjectTypeDefinition @0..116
                    name Album @5..10
                    implements Node @24..28
                    implements Media @31..36
                    Directive @key @37..50
                      Argument f @42..49
                        StringValue "id" @45..49
                    FieldDefinition @53..98
                      description string "t" @53..56
                      name title @57..62
                      InputValueDefinition @63..88
                        name upper @63..68
                        NamedType Boolean @70..77
                        default BooleanValue false @80..85
                        Directive @d @86..88
                      NonNullType @91..98
                        NamedType String @91..97
                    FieldDefinition @99..114
                      name tracks @99..105
                      ListType @107..114
                        NamedType Track @108..113
                """)
    }

    @Test func objectTypeWithoutFields() {
        #expect(
            dumpParse("type Empty") == """
                Document @0..10
                  ObjectTypeDefinition @0..10
                    name Empty @5..10
                """)
    }

    @Test func interfaceImplementingAnInterface() {
        #expect(
            dumpParse("interface Media implements Node { id: ID! }") == """
                Document @0..43
                  InterfaceTypeDefinition @0..43
                    name Media @10..15
                    implements Node @27..31
                    FieldDefinition @34..41
                      name id @34..36
                      NonNullType @38..41
                        NamedType ID @38..40
                """)
    }

    @Test func unionWithLeadingPipe() {
        #expect(
            dumpParse("union R @u = | Artist | Album") == """
                Document @0..29
                  UnionTypeDefinition @0..29
                    name R @6..7
                    Directive @u @8..10
                    member Artist @15..21
                    member Album @24..29
                """)
    }

    @Test func unionWithoutMembers() {
        #expect(
            dumpParse("union U") == """
                Document @0..7
                  UnionTypeDefinition @0..7
                    name U @6..7
                """)
    }

    @Test func enumWithDescriptionsAndDirectives() {
        #expect(
            dumpParse(#"enum Genre { "r" ROCK @old JAZZ }"#) == """
                Document @0..33
                  EnumTypeDefinition @0..33
                    name Genre @5..10
                    EnumValueDefinition @13..26
                      description string "r" @13..16
                      name ROCK @17..21
                      Directive @old @22..26
                    EnumValueDefinition @27..31
                      name JAZZ @27..31
                """)
    }

    @Test func inputObjectWithDefaults() {
        #expect(
            dumpParse(#"input Filter @one { name: String = "x", tags: [String!] = ["a"] }"#) == """
                Document @0..65
                  InputObjectTypeDefinition @0..65
                    name Filter @6..12
                    Directive @one @13..17
                    InputValueDefinition @20..38
                      name name @20..24
                      NamedType String @26..32
                      default StringValue "x" @35..38
                    InputValueDefinition @40..63
                      name tags @40..44
                      ListType @46..55
                        NonNullType @47..54
                          NamedType String @47..53
                      default ListValue @58..63
                        StringValue "a" @59..62
                """)
    }

    @Test func repeatableDirectiveWithLeadingPipe() {
        #expect(
            dumpParse(#""d" directive @cost(w: Int = 1) repeatable on | FIELD_DEFINITION | OBJECT"#) == """
                Document @0..73
                  DirectiveDefinition repeatable @0..73
                    description string "d" @0..3
                    name cost @15..19
                    InputValueDefinition @20..30
                      name w @20..21
                      NamedType Int @23..26
                      default IntValue 1 @29..30
                    location FIELD_DEFINITION @48..64
                    location OBJECT @67..73
                """)
    }

    @Test func plainDirectiveDefinition() {
        #expect(
            dumpParse("directive @d on QUERY") == """
                Document @0..21
                  DirectiveDefinition @0..21
                    name d @11..12
                    location QUERY @16..21
                """)
    }

    @Test func schemaExtensions() {
        #expect(
            dumpParse("extend schema @a extend schema { mutation: M }") == """
                Document @0..46
                  SchemaExtension @0..16
                    Directive @a @14..16
                  SchemaExtension @17..46
                    OperationTypeDefinition mutation: M @33..44
                """)
    }

    @Test func scalarExtension() {
        #expect(
            dumpParse("extend scalar S @a") == """
                Document @0..18
                  ScalarTypeExtension @0..18
                    name S @14..15
                    Directive @a @16..18
                """)
    }

    @Test func objectTypeExtensions() {
        #expect(
            dumpParse("extend type T implements I extend type T @a extend type T { f: Int }") == """
                Document @0..68
                  ObjectTypeExtension @0..26
                    name T @12..13
                    implements I @25..26
                  ObjectTypeExtension @27..43
                    name T @39..40
                    Directive @a @41..43
                  ObjectTypeExtension @44..68
                    name T @56..57
                    FieldDefinition @60..66
                      name f @60..61
                      NamedType Int @63..66
                """)
    }

    @Test func interfaceExtensions() {
        #expect(
            dumpParse("extend interface I implements J extend interface I @a extend interface I { f: Int }") == """
                Document @0..83
                  InterfaceTypeExtension @0..31
                    name I @17..18
                    implements J @30..31
                  InterfaceTypeExtension @32..53
                    name I @49..50
                    Directive @a @51..53
                  InterfaceTypeExtension @54..83
                    name I @71..72
                    FieldDefinition @75..81
                      name f @75..76
                      NamedType Int @78..81
                """)
    }

    @Test func unionExtensions() {
        #expect(
            dumpParse("extend union U @a extend union U = A") == """
                Document @0..36
                  UnionTypeExtension @0..17
                    name U @13..14
                    Directive @a @15..17
                  UnionTypeExtension @18..36
                    name U @31..32
                    member A @35..36
                """)
    }

    @Test func enumExtensions() {
        #expect(
            dumpParse("extend enum E @a extend enum E { B }") == """
                Document @0..36
                  EnumTypeExtension @0..16
                    name E @12..13
                    Directive @a @14..16
                  EnumTypeExtension @17..36
                    name E @29..30
                    EnumValueDefinition @33..34
                      name B @33..34
                """)
    }

    @Test func inputObjectExtensions() {
        #expect(
            dumpParse("extend input In @a extend input In { f: Int }") == """
                Document @0..45
                  InputObjectTypeExtension @0..18
                    name In @13..15
                    Directive @a @16..18
                  InputObjectTypeExtension @19..45
                    name In @32..34
                    InputValueDefinition @37..43
                      name f @37..38
                      NamedType Int @40..43
                """)
    }

    @Test func executableAndTypeSystemDefinitionsMix() throws {
        let document = try parse(
            Source("type Query { a: Int }\nquery Q { a }\nfragment F on Query { a }\nextend type Query { b: Int }"))
        #expect(document.definitions.map(\.isExecutable) == [false, true, true, false])
        #expect(
            document.definitions.map(\.loc) == [
                Location(start: 0, end: 21), Location(start: 22, end: 35), Location(start: 36, end: 61),
                Location(start: 62, end: 90),
            ])
    }

    @Test func onlyTheBraceFormIsShorthand() throws {
        let document = try parse(Source("{ a } query { b } query Q { c } mutation { d }"))
        let shorthand = document.definitions.map { definition -> Bool in
            if case .operation(let operation) = definition { return operation.isShorthand }
            return false
        }
        #expect(shorthand == [true, false, false, false])
        #expect(OperationDefinition(operation: .query, selectionSet: SelectionSet(selections: [])).isShorthand)
    }

    @Test func aLeadingByteOrderMarkAndCRLFLinesParse() throws {
        let document = try parse(Source("\u{FEFF}query A {\r\n  b\r\n}\r\n"))
        guard case .operation(let operation) = document.definitions.first else {
            Issue.record("expected an operation")
            return
        }
        #expect(operation.name?.value == "A")
        #expect(operation.loc == Location(start: 3, end: 20))
        #expect(document.loc == Location(start: 0, end: 22))
    }

    @Test func stringValuesAreCookedInTheAST() throws {
        let document = try parse(Source(#"{ f(a: "x\u00e9\n", b: """  one\n    two  """) }"#))
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first,
            case .string(let a) = field.arguments[0].value, case .string(let b) = field.arguments[1].value
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(a.value == "xé\n")
        #expect(a.block == false)
        #expect(b.value == #"  one\n    two  "#)
        #expect(b.block == true)
    }

    // MARK: - Single values and types

    @Test func parseValueReadsOneValueWithVariables() throws {
        guard case .list(let list) = try parseValue(Source("[1, {a: $v}]")) else {
            Issue.record("expected a list")
            return
        }
        #expect(list.loc == Location(start: 0, end: 12))
        guard case .object(let object) = list.values[1], case .variable(let variable) = object.fields[0].value else {
            Issue.record("expected an object holding a variable")
            return
        }
        #expect(variable.name.value == "v")
        #expect(variable.loc == Location(start: 8, end: 10))
    }

    @Test func parseConstValueRejectsVariables() {
        #expect(
            throws: GraphQLError(
                "Syntax Error: Unexpected variable \"$v\" in constant value.",
                locations: [SourceLocation(line: 1, column: 5)])
        ) {
            try parseConstValue(Source("{a: $v}"))
        }
    }

    @Test func parseTypeReadsOneTypeReference() throws {
        guard case .nonNull(let outer) = try parseType(Source("[Track!]!")), case .list(let list) = outer.type,
            case .nonNull(let inner) = list.type, case .named(let named) = inner.type
        else {
            Issue.record("expected [Track!]!")
            return
        }
        #expect(named.name.value == "Track")
        #expect(outer.loc == Location(start: 0, end: 9))
    }

    @Test func singleValuesAndTypesMustFillTheSource() {
        #expect(
            throws: GraphQLError(
                "Syntax Error: Expected <EOF>, found Int \"2\".",
                locations: [SourceLocation(line: 1, column: 3)])
        ) {
            try parseValue(Source("1 2"))
        }
        #expect(
            throws: GraphQLError(
                "Syntax Error: Expected <EOF>, found \"]\".",
                locations: [SourceLocation(line: 1, column: 4)])
        ) {
            try parseType(Source("Int]"))
        }
        #expect(
            throws: GraphQLError("Syntax Error: Unexpected <EOF>.", locations: [SourceLocation(line: 1, column: 1)])
        ) {
            try parseValue(Source(""))
        }
    }

    // MARK: - Syntax errors: executable documents

    @Test func emptyDocuments() {
        #expect(parseError("") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 1))
        #expect(parseError("  # nothing\n\n ") == ReportedError("Syntax Error: Unexpected <EOF>.", 3, 2))
    }

    @Test func selectionErrors() {
        #expect(parseError("{") == ReportedError("Syntax Error: Expected Name, found <EOF>.", 1, 2))
        #expect(parseError("{}") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 2))
        #expect(parseError("{ a: }") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 6))
        #expect(parseError("{ a: b: c }") == ReportedError("Syntax Error: Expected Name, found \":\".", 1, 7))
        #expect(parseError("{ a }}") == ReportedError("Syntax Error: Unexpected \"}\".", 1, 6))
        #expect(parseError("}") == ReportedError("Syntax Error: Unexpected \"}\".", 1, 1))
        #expect(parseError("{ a {\n  b\n") == ReportedError("Syntax Error: Expected Name, found <EOF>.", 3, 1))
        #expect(parseError("{ 42 }") == ReportedError("Syntax Error: Expected Name, found Int \"42\".", 1, 3))
        #expect(parseError("{ \"s\" }") == ReportedError("Syntax Error: Expected Name, found String \"s\".", 1, 3))
    }

    @Test func argumentErrors() {
        #expect(parseError("{ a() }") == ReportedError("Syntax Error: Expected Name, found \")\".", 1, 5))
        #expect(parseError("{ a(b) }") == ReportedError("Syntax Error: Expected \":\", found \")\".", 1, 6))
        #expect(parseError("{ a(b:) }") == ReportedError("Syntax Error: Unexpected \")\".", 1, 7))
        #expect(parseError("{ a(b: 1 }") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 10))
        #expect(parseError("{ a(b: [1, 2) }") == ReportedError("Syntax Error: Unexpected \")\".", 1, 13))
        #expect(parseError("{ a(b: {c: 1) }") == ReportedError("Syntax Error: Expected Name, found \")\".", 1, 13))
        #expect(parseError("{ a(b: $) }") == ReportedError("Syntax Error: Expected Name, found \")\".", 1, 9))
        #expect(parseError("{ a(b: ...) }") == ReportedError("Syntax Error: Unexpected \"...\".", 1, 8))
    }

    @Test func directiveErrors() {
        #expect(parseError("{ a @ }") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 7))
        #expect(parseError("query Q @d() { a }") == ReportedError("Syntax Error: Expected Name, found \")\".", 1, 12))
    }

    @Test func operationErrors() {
        #expect(parseError("query") == ReportedError("Syntax Error: Expected \"{\", found <EOF>.", 1, 6))
        #expect(parseError("subscription S") == ReportedError("Syntax Error: Expected \"{\", found <EOF>.", 1, 15))
        #expect(parseError("queri { a }") == ReportedError("Syntax Error: Unexpected Name \"queri\".", 1, 1))
        #expect(
            parseError("query Q { a } trailing") == ReportedError("Syntax Error: Unexpected Name \"trailing\".", 1, 15))
        #expect(
            parseError("\"about\" { a }")
                == ReportedError(
                    "Syntax Error: Unexpected description, descriptions are not supported on shorthand queries.", 1, 1))
        #expect(
            parseError("\"about\" \"twice\" query { a }")
                == ReportedError(
                    "Syntax Error: Unexpected String \"twice\".", 1, 9))
    }

    @Test func variableErrors() {
        #expect(parseError("query Q($a: ) { b }") == ReportedError("Syntax Error: Expected Name, found \")\".", 1, 13))
        #expect(parseError("query Q($a) { b }") == ReportedError("Syntax Error: Expected \":\", found \")\".", 1, 11))
        #expect(
            parseError("query Q(a: Int) { b }")
                == ReportedError("Syntax Error: Expected \"$\", found Name \"a\".", 1, 9))
        #expect(parseError("query Q() { b }") == ReportedError("Syntax Error: Expected \"$\", found \")\".", 1, 9))
        #expect(parseError("query Q($a: Int = ) { b }") == ReportedError("Syntax Error: Unexpected \")\".", 1, 19))
        #expect(
            parseError("query Q($a: [Int) { b }") == ReportedError("Syntax Error: Expected \"]\", found \")\".", 1, 17))
        #expect(
            parseError("query Q($a: Int!!) { b }") == ReportedError("Syntax Error: Expected \"$\", found \"!\".", 1, 17)
        )
    }

    @Test func variablesAreErrorsInConstantPositions() {
        #expect(
            parseError("query Q($a: Int = $b) { c }")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 19))
        #expect(
            parseError("query Q($a: [Int] = [1, $b]) { c }")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 25))
        #expect(
            parseError("query Q($a: In = {x: {y: $b}}) { c }")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 26))
        #expect(
            parseError("query Q($a: Int @d(x: $b)) { c }")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 23))
        #expect(parseError("query Q($a: Int = $) { c }") == ReportedError("Syntax Error: Unexpected \"$\".", 1, 19))
        #expect(
            parseError("input I { a: Int @dir(x: $v) }")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$v\" in constant value.", 1, 26))
        #expect(
            parseError("type T { f(a: Int = $v): Int }")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$v\" in constant value.", 1, 21))
        #expect(
            parseError("scalar S @d(x: [$v])")
                == ReportedError(
                    "Syntax Error: Unexpected variable \"$v\" in constant value.", 1, 17))
    }

    @Test func fragmentErrors() {
        #expect(parseError("fragment F on T") == ReportedError("Syntax Error: Expected \"{\", found <EOF>.", 1, 16))
        #expect(parseError("fragment F { a }") == ReportedError("Syntax Error: Expected \"on\", found \"{\".", 1, 12))
        #expect(parseError("fragment on on T { a }") == ReportedError("Syntax Error: Unexpected Name \"on\".", 1, 10))
        #expect(parseError("{ ...on }") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 9))
        #expect(parseError("{ ... }") == ReportedError("Syntax Error: Expected \"{\", found \"}\".", 1, 7))
        #expect(parseError("{ .. a }") == ReportedError("Syntax Error: Unexpected character: \".\".", 1, 3))
    }

    // MARK: - Syntax errors: type system documents

    @Test func descriptionsOnlyOpenDefinitions() {
        #expect(
            parseError("\"described\" extend type T @d")
                == ReportedError(
                    "Syntax Error: Unexpected description, only GraphQL definitions support descriptions.", 1, 1))
        #expect(
            parseError("\"\"\"described\"\"\"\nunknown T")
                == ReportedError(
                    "Syntax Error: Unexpected description, only GraphQL definitions support descriptions.", 1, 1))
    }

    @Test func typeDefinitionErrors() {
        #expect(
            parseError("type T implements { a: Int }")
                == ReportedError("Syntax Error: Expected Name, found \"{\".", 1, 19))
        #expect(
            parseError("type T implements I & { a: Int }")
                == ReportedError("Syntax Error: Expected Name, found \"{\".", 1, 23))
        #expect(parseError("type T {}") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 9))
        #expect(parseError("type T { a }") == ReportedError("Syntax Error: Expected \":\", found \"}\".", 1, 12))
        #expect(parseError("type T { a(): Int }") == ReportedError("Syntax Error: Expected Name, found \")\".", 1, 12))
        #expect(parseError("union U = ") == ReportedError("Syntax Error: Expected Name, found <EOF>.", 1, 11))
        #expect(parseError("union U = A |") == ReportedError("Syntax Error: Expected Name, found <EOF>.", 1, 14))
        #expect(
            parseError("input I { a: Int b }") == ReportedError("Syntax Error: Expected \":\", found \"}\".", 1, 20))
        #expect(
            parseError("schema { query Q }") == ReportedError("Syntax Error: Expected \":\", found Name \"Q\".", 1, 16))
        #expect(parseError("schema { other: Q }") == ReportedError("Syntax Error: Unexpected Name \"other\".", 1, 10))
        #expect(parseError("schema {}") == ReportedError("Syntax Error: Expected Name, found \"}\".", 1, 9))
    }

    @Test func enumValuesMayNotBeTrueFalseOrNull() {
        #expect(
            parseError("enum E { true }")
                == ReportedError(
                    "Syntax Error: Name \"true\" is reserved and cannot be used for an enum value.", 1, 10))
        #expect(
            parseError("enum E { A false }")
                == ReportedError(
                    "Syntax Error: Name \"false\" is reserved and cannot be used for an enum value.", 1, 12))
        #expect(
            parseError("enum E { null }")
                == ReportedError(
                    "Syntax Error: Name \"null\" is reserved and cannot be used for an enum value.", 1, 10))
        #expect(parseError("enum E { TRUE Null nulls }") == nil)
    }

    @Test func directiveDefinitionErrors() {
        #expect(
            parseError("directive @d(a: Int) on FIELD |")
                == ReportedError("Syntax Error: Expected Name, found <EOF>.", 1, 32))
        #expect(
            parseError("directive @d repeatable FIELD")
                == ReportedError(
                    "Syntax Error: Expected \"on\", found Name \"FIELD\".", 1, 25))
        #expect(
            parseError("directive @d on FIELD | UNKNOWN_LOC")
                == ReportedError(
                    "Syntax Error: Unexpected Name \"UNKNOWN_LOC\".", 1, 25))
        #expect(parseError("directive @d on field") == ReportedError("Syntax Error: Unexpected Name \"field\".", 1, 17))
        #expect(
            parseError("directive d on FIELD")
                == ReportedError("Syntax Error: Expected \"@\", found Name \"d\".", 1, 11))
        #expect(
            parseError("directive @d on FIELD | | QUERY")
                == ReportedError("Syntax Error: Expected Name, found \"|\".", 1, 25))
    }

    @Test func everyDirectiveLocationIsAccepted() throws {
        let locations = [
            "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
            "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE",
            "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION", "DIRECTIVE_DEFINITION",
        ]
        let document = try parse(Source("directive @all on " + locations.joined(separator: " | ")))
        guard case .directive(let definition) = document.definitions.first else {
            Issue.record("expected a directive definition")
            return
        }
        #expect(definition.locations.map(\.value) == locations)
    }

    @Test func extensionsThatAddNothingAreErrors() {
        #expect(parseError("extend schema") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 14))
        #expect(parseError("extend scalar S") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 16))
        #expect(parseError("extend type T") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 14))
        #expect(parseError("extend type T type U") == ReportedError("Syntax Error: Unexpected Name \"type\".", 1, 15))
        #expect(parseError("extend interface I") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 19))
        #expect(parseError("extend union U") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 15))
        #expect(parseError("extend enum E") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 14))
        #expect(parseError("extend input I") == ReportedError("Syntax Error: Unexpected <EOF>.", 1, 15))
        #expect(parseError("extend foo T") == ReportedError("Syntax Error: Unexpected Name \"foo\".", 1, 8))
        #expect(parseError("extend { a }") == ReportedError("Syntax Error: Unexpected \"{\".", 1, 8))
        #expect(
            parseError("extend directive @d on FIELD")
                == ReportedError("Syntax Error: Unexpected Name \"directive\".", 1, 8))
    }

    @Test func lexicalErrorsSurfaceThroughParse() {
        #expect(
            parseError("{ a(b: 0x1F) }")
                == ReportedError("Syntax Error: Invalid number, expected digit but got: \"x\".", 1, 9))
        #expect(
            parseError("{\r\n  a(\r\n    c: ?\r\n  )\r\n}")
                == ReportedError("Syntax Error: Unexpected character: \"?\".", 3, 8))
    }
}
