// Type system definitions and extensions (spec §3): schema, the six named type kinds,
// directive definitions, descriptions and every `extend` form.

extension Parser {
    // MARK: - Descriptions (§3.2)

    /// True when a description (a string) opens the next definition.
    func peekDescription() -> Bool {
        peek(.string) || peek(.blockString)
    }

    /// ```
    /// Description : StringValue
    /// ```
    mutating func parseDescription() throws(SyntaxError) -> StringValue? {
        guard peekDescription() else { return nil }
        let token = lexer.token
        try advanceLexer()
        return StringValue(
            lexedIn: source, block: token.kind == .blockString, loc: Location(start: token.start, end: token.end))
    }

    // MARK: - Schema (§3.3)

    /// ```
    /// SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }
    /// ```
    mutating func parseSchemaDefinition() throws(SyntaxError) -> SchemaDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        let operationTypes = try many(
            .braceL, { p throws(SyntaxError) in try p.parseOperationTypeDefinition() }, .braceR)
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes, loc: loc(from: start))
    }

    /// ```
    /// RootOperationTypeDefinition : OperationType : NamedType
    /// ```
    mutating func parseOperationTypeDefinition() throws(SyntaxError) -> OperationTypeDefinition {
        let start = lexer.token
        let operation = try parseOperationType()
        try expectToken(.colon)
        let type = try parseNamedType()
        return OperationTypeDefinition(operation: operation, type: type, loc: loc(from: start))
    }

    // MARK: - Types (§3.5–§3.10)

    /// ```
    /// ScalarTypeDefinition : Description? scalar Name Directives[Const]?
    /// ```
    mutating func parseScalarTypeDefinition() throws(SyntaxError) -> ScalarTypeDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        return ScalarTypeDefinition(description: description, name: name, directives: directives, loc: loc(from: start))
    }

    /// ```
    /// ObjectTypeDefinition : Description? type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?
    /// ```
    mutating func parseObjectTypeDefinition() throws(SyntaxError) -> ObjectTypeDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            loc: loc(from: start))
    }

    /// ```
    /// ImplementsInterfaces :
    ///   - ImplementsInterfaces & NamedType
    ///   - implements &? NamedType
    /// ```
    mutating func parseImplementsInterfaces() throws(SyntaxError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        return try delimitedMany(.amp) { p throws(SyntaxError) in try p.parseNamedType() }
    }

    /// ```
    /// FieldsDefinition : { FieldDefinition+ }
    /// ```
    mutating func parseFieldsDefinition() throws(SyntaxError) -> [FieldDefinition] {
        try optionalMany(.braceL, { p throws(SyntaxError) in try p.parseFieldDefinition() }, .braceR)
    }

    /// ```
    /// FieldDefinition : Description? Name ArgumentsDefinition? : Type Directives[Const]?
    /// ```
    mutating func parseFieldDefinition() throws(SyntaxError) -> FieldDefinition {
        let start = lexer.token
        let description = try parseDescription()
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        try expectToken(.colon)
        let type = try parseTypeReference()
        let directives = try parseDirectives(isConst: true)
        return FieldDefinition(
            description: description, name: name, arguments: arguments, type: type, directives: directives,
            loc: loc(from: start))
    }

    /// ```
    /// ArgumentsDefinition : ( InputValueDefinition+ )
    /// ```
    mutating func parseArgumentDefinitions() throws(SyntaxError) -> [InputValueDefinition] {
        try optionalMany(.parenL, { p throws(SyntaxError) in try p.parseInputValueDefinition() }, .parenR)
    }

    /// ```
    /// InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?
    /// ```
    mutating func parseInputValueDefinition() throws(SyntaxError) -> InputValueDefinition {
        let start = lexer.token
        let description = try parseDescription()
        let name = try parseName()
        try expectToken(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptionalToken(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            loc: loc(from: start))
    }

    /// ```
    /// InterfaceTypeDefinition : Description? interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?
    /// ```
    mutating func parseInterfaceTypeDefinition() throws(SyntaxError) -> InterfaceTypeDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return InterfaceTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            loc: loc(from: start))
    }

    /// ```
    /// UnionTypeDefinition : Description? union Name Directives[Const]? UnionMemberTypes?
    /// ```
    mutating func parseUnionTypeDefinition() throws(SyntaxError) -> UnionTypeDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, loc: loc(from: start))
    }

    /// ```
    /// UnionMemberTypes :
    ///   - UnionMemberTypes | NamedType
    ///   - = |? NamedType
    /// ```
    mutating func parseUnionMemberTypes() throws(SyntaxError) -> [NamedType] {
        guard try expectOptionalToken(.equals) else { return [] }
        return try delimitedMany(.pipe) { p throws(SyntaxError) in try p.parseNamedType() }
    }

    /// ```
    /// EnumTypeDefinition : Description? enum Name Directives[Const]? EnumValuesDefinition?
    /// ```
    mutating func parseEnumTypeDefinition() throws(SyntaxError) -> EnumTypeDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, loc: loc(from: start))
    }

    /// ```
    /// EnumValuesDefinition : { EnumValueDefinition+ }
    /// ```
    mutating func parseEnumValuesDefinition() throws(SyntaxError) -> [EnumValueDefinition] {
        try optionalMany(.braceL, { p throws(SyntaxError) in try p.parseEnumValueDefinition() }, .braceR)
    }

    /// ```
    /// EnumValueDefinition : Description? EnumValue Directives[Const]?
    /// ```
    mutating func parseEnumValueDefinition() throws(SyntaxError) -> EnumValueDefinition {
        let start = lexer.token
        let description = try parseDescription()
        let name = try parseEnumValueName()
        let directives = try parseDirectives(isConst: true)
        return EnumValueDefinition(description: description, name: name, directives: directives, loc: loc(from: start))
    }

    /// ```
    /// EnumValue : Name but not true, false or null
    /// ```
    mutating func parseEnumValueName() throws(SyntaxError) -> Name {
        let token = lexer.token
        if lexer.isKeyword(token, "true") || lexer.isKeyword(token, "false") || lexer.isKeyword(token, "null") {
            throw SyntaxError(
                position: token.start,
                description: "\(describe(token)) is reserved and cannot be used for an enum value.")
        }
        return try parseName()
    }

    /// ```
    /// InputObjectTypeDefinition : Description? input Name Directives[Const]? InputFieldsDefinition?
    /// ```
    mutating func parseInputObjectTypeDefinition() throws(SyntaxError) -> InputObjectTypeDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputFieldsDefinition()
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, loc: loc(from: start))
    }

    /// ```
    /// InputFieldsDefinition : { InputValueDefinition+ }
    /// ```
    mutating func parseInputFieldsDefinition() throws(SyntaxError) -> [InputValueDefinition] {
        try optionalMany(.braceL, { p throws(SyntaxError) in try p.parseInputValueDefinition() }, .braceR)
    }

    // MARK: - Directive definitions (§3.13)

    /// ```
    /// DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations
    /// ```
    mutating func parseDirectiveDefinition() throws(SyntaxError) -> DirectiveDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("directive")
        try expectToken(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let repeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        let locations = try parseDirectiveLocations()
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, repeatable: repeatable, locations: locations,
            loc: loc(from: start))
    }

    /// ```
    /// DirectiveLocations :
    ///   - DirectiveLocations | DirectiveLocation
    ///   - |? DirectiveLocation
    /// ```
    mutating func parseDirectiveLocations() throws(SyntaxError) -> [Name] {
        try delimitedMany(.pipe) { p throws(SyntaxError) in try p.parseDirectiveLocation() }
    }

    /// ```
    /// DirectiveLocation : ExecutableDirectiveLocation | TypeSystemDirectiveLocation
    /// ```
    ///
    /// Any other name is an error at that name.
    mutating func parseDirectiveLocation() throws(SyntaxError) -> Name {
        let start = lexer.token
        let name = try parseName()
        guard Parser.directiveLocations.contains(name.value) else {
            throw unexpected(start)
        }
        return name
    }

    /// ExecutableDirectiveLocation and TypeSystemDirectiveLocation (§3.13), plus
    /// DIRECTIVE_DEFINITION, which graphql-js 16.14+ (our oracle) accepts.
    static let directiveLocations: Set<String> = [
        "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD",
        "INLINE_FRAGMENT", "VARIABLE_DEFINITION",
        "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE", "UNION",
        "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION", "DIRECTIVE_DEFINITION",
    ]

    // MARK: - Extensions (§3.3.2, §3.5.1–§3.10.1)

    /// ```
    /// TypeSystemExtension :
    ///   - SchemaExtension
    ///   - TypeExtension
    /// ```
    ///
    /// The kind follows `extend`; an extension that adds nothing is an error at the token
    /// where its additions should have started.
    mutating func parseTypeSystemExtension() throws(SyntaxError) -> Definition {
        let keywordToken = try lexer.lookahead()
        if keywordToken.kind == .name {
            switch lexer.text(of: keywordToken) {
            case "schema": return .schemaExtension(try parseSchemaExtension())
            case "scalar": return .scalarTypeExtension(try parseScalarTypeExtension())
            case "type": return .objectTypeExtension(try parseObjectTypeExtension())
            case "interface": return .interfaceTypeExtension(try parseInterfaceTypeExtension())
            case "union": return .unionTypeExtension(try parseUnionTypeExtension())
            case "enum": return .enumTypeExtension(try parseEnumTypeExtension())
            case "input": return .inputObjectTypeExtension(try parseInputObjectTypeExtension())
            default: break
            }
        }
        throw unexpected(keywordToken)
    }

    /// ```
    /// SchemaExtension :
    ///   - extend schema Directives[Const]? { RootOperationTypeDefinition+ }
    ///   - extend schema Directives[Const] [lookahead != {]
    /// ```
    mutating func parseSchemaExtension() throws(SyntaxError) -> SchemaExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        let operationTypes = try optionalMany(
            .braceL, { p throws(SyntaxError) in try p.parseOperationTypeDefinition() }, .braceR)
        if directives.isEmpty && operationTypes.isEmpty {
            throw unexpected()
        }
        return SchemaExtension(directives: directives, operationTypes: operationTypes, loc: loc(from: start))
    }

    /// ```
    /// ScalarTypeExtension : extend scalar Name Directives[Const]
    /// ```
    mutating func parseScalarTypeExtension() throws(SyntaxError) -> ScalarTypeExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        if directives.isEmpty {
            throw unexpected()
        }
        return ScalarTypeExtension(name: name, directives: directives, loc: loc(from: start))
    }

    /// ```
    /// ObjectTypeExtension :
    ///   - extend type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition
    ///   - extend type Name ImplementsInterfaces? Directives[Const] [lookahead != {]
    ///   - extend type Name ImplementsInterfaces [lookahead != {]
    /// ```
    mutating func parseObjectTypeExtension() throws(SyntaxError) -> ObjectTypeExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty && directives.isEmpty && fields.isEmpty {
            throw unexpected()
        }
        return ObjectTypeExtension(
            name: name, interfaces: interfaces, directives: directives, fields: fields, loc: loc(from: start))
    }

    /// ```
    /// InterfaceTypeExtension :
    ///   - extend interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition
    ///   - extend interface Name ImplementsInterfaces? Directives[Const] [lookahead != {]
    ///   - extend interface Name ImplementsInterfaces [lookahead != {]
    /// ```
    mutating func parseInterfaceTypeExtension() throws(SyntaxError) -> InterfaceTypeExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty && directives.isEmpty && fields.isEmpty {
            throw unexpected()
        }
        return InterfaceTypeExtension(
            name: name, interfaces: interfaces, directives: directives, fields: fields, loc: loc(from: start))
    }

    /// ```
    /// UnionTypeExtension :
    ///   - extend union Name Directives[Const]? UnionMemberTypes
    ///   - extend union Name Directives[Const]
    /// ```
    mutating func parseUnionTypeExtension() throws(SyntaxError) -> UnionTypeExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        if directives.isEmpty && types.isEmpty {
            throw unexpected()
        }
        return UnionTypeExtension(name: name, directives: directives, types: types, loc: loc(from: start))
    }

    /// ```
    /// EnumTypeExtension :
    ///   - extend enum Name Directives[Const]? EnumValuesDefinition
    ///   - extend enum Name Directives[Const] [lookahead != {]
    /// ```
    mutating func parseEnumTypeExtension() throws(SyntaxError) -> EnumTypeExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        if directives.isEmpty && values.isEmpty {
            throw unexpected()
        }
        return EnumTypeExtension(name: name, directives: directives, values: values, loc: loc(from: start))
    }

    /// ```
    /// InputObjectTypeExtension :
    ///   - extend input Name Directives[Const]? InputFieldsDefinition
    ///   - extend input Name Directives[Const] [lookahead != {]
    /// ```
    mutating func parseInputObjectTypeExtension() throws(SyntaxError) -> InputObjectTypeExtension {
        let start = lexer.token
        try expectKeyword("extend")
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputFieldsDefinition()
        if directives.isEmpty && fields.isEmpty {
            throw unexpected()
        }
        return InputObjectTypeExtension(name: name, directives: directives, fields: fields, loc: loc(from: start))
    }
}
