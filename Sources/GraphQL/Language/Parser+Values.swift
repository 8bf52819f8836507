// Names, values, directives and type references (spec §2.1.9, §2.9, §2.11, §2.12),
// shared by executable and type system definitions.

extension Parser {
    /// ```
    /// Name :: NameStart NameContinue*
    /// ```
    @inline(__always)
    mutating func parseName() throws(SyntaxError) -> Name {
        let token = try expectToken(.name)
        let value = lexer.text(of: token)
        return Name(value, loc: Location(start: token.start, end: token.end))
    }

    // MARK: - Values (§2.9)

    /// A value; in const positions (`isConst`, e.g. default values and type system
    /// directives) a variable is an error.
    ///
    /// ```
    /// Value[Const] :
    ///   - [~Const] Variable
    ///   - IntValue
    ///   - FloatValue
    ///   - StringValue
    ///   - BooleanValue
    ///   - NullValue
    ///   - EnumValue
    ///   - ListValue[?Const]
    ///   - ObjectValue[?Const]
    /// BooleanValue : one of true false
    /// NullValue : null
    /// EnumValue : Name but not true, false or null
    /// ```
    mutating func parseValueLiteral(isConst: Bool) throws(SyntaxError) -> Value {
        let token = lexer.token
        let tokenLoc = Location(start: token.start, end: token.end)
        switch token.kind {
        case .bracketL:
            return .list(try parseList(isConst: isConst))
        case .braceL:
            return .object(try parseObject(isConst: isConst))
        case .int:
            try advanceLexer()
            return .int(IntValue(value: lexer.text(of: token), loc: tokenLoc))
        case .float:
            try advanceLexer()
            return .float(FloatValue(value: lexer.text(of: token), loc: tokenLoc))
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advanceLexer()
            if lexer.isKeyword(token, "true") { return .boolean(BooleanValue(value: true, loc: tokenLoc)) }
            if lexer.isKeyword(token, "false") { return .boolean(BooleanValue(value: false, loc: tokenLoc)) }
            if lexer.isKeyword(token, "null") { return .null(NullValue(loc: tokenLoc)) }
            return .enumValue(EnumValue(value: lexer.text(of: token), loc: tokenLoc))
        case .dollar:
            if isConst {
                try expectToken(.dollar)
                let next = lexer.token
                if next.kind == .name {
                    throw SyntaxError(
                        position: token.start,
                        description: "Unexpected variable \"$\(lexer.text(of: next))\" in constant value.")
                }
                throw unexpected(token)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected()
        }
    }

    /// ```
    /// StringValue :: " StringCharacter* " | """ BlockStringCharacter* """
    /// ```
    mutating func parseStringLiteral() throws(SyntaxError) -> StringValue {
        let token = lexer.token
        let value = lexer.tokenValue
        try advanceLexer()
        return StringValue(
            value: value, block: token.kind == .blockString, loc: Location(start: token.start, end: token.end))
    }

    /// ```
    /// ListValue[Const] :
    ///   - [ ]
    ///   - [ Value[?Const]+ ]
    /// ```
    mutating func parseList(isConst: Bool) throws(SyntaxError) -> ListValue {
        let start = lexer.token
        try enterNesting(at: start)
        let values = try any(
            .bracketL, { p throws(SyntaxError) in try p.parseValueLiteral(isConst: isConst) }, .bracketR)
        leaveNesting()
        return ListValue(values: values, loc: loc(from: start))
    }

    /// ```
    /// ObjectValue[Const] :
    ///   - { }
    ///   - { ObjectField[?Const]+ }
    /// ```
    mutating func parseObject(isConst: Bool) throws(SyntaxError) -> ObjectValue {
        let start = lexer.token
        try enterNesting(at: start)
        let fields = try any(.braceL, { p throws(SyntaxError) in try p.parseObjectField(isConst: isConst) }, .braceR)
        leaveNesting()
        return ObjectValue(fields: fields, loc: loc(from: start))
    }

    /// ```
    /// ObjectField[Const] : Name : Value[?Const]
    /// ```
    mutating func parseObjectField(isConst: Bool) throws(SyntaxError) -> ObjectField {
        let start = lexer.token
        let name = try parseName()
        try expectToken(.colon)
        let value = try parseValueLiteral(isConst: isConst)
        return ObjectField(name: name, value: value, loc: loc(from: start))
    }

    // MARK: - Directives (§2.12)

    /// ```
    /// Directives[Const] : Directive[?Const]+
    /// ```
    mutating func parseDirectives(isConst: Bool) throws(SyntaxError) -> [Directive] {
        guard peek(.at) else { return [] }
        var directives: [Directive] = []
        while peek(.at) {
            directives.append(try parseDirective(isConst: isConst))
        }
        return directives
    }

    /// ```
    /// Directive[Const] : @ Name Arguments[?Const]?
    /// ```
    mutating func parseDirective(isConst: Bool) throws(SyntaxError) -> Directive {
        let start = lexer.token
        try expectToken(.at)
        let name = try parseName()
        let arguments = try parseArguments(isConst: isConst)
        return Directive(name: name, arguments: arguments, loc: loc(from: start))
    }

    // MARK: - Type references (§2.11)

    /// ```
    /// Type :
    ///   - NamedType
    ///   - ListType
    ///   - NonNullType
    /// ListType : [ Type ]
    /// NonNullType :
    ///   - NamedType !
    ///   - ListType !
    /// ```
    mutating func parseTypeReference() throws(SyntaxError) -> TypeNode {
        let start = lexer.token
        let type: TypeNode
        if try expectOptionalToken(.bracketL) {
            try enterNesting(at: start)
            let inner = try parseTypeReference()
            try expectToken(.bracketR)
            leaveNesting()
            type = .list(ListType(type: inner, loc: loc(from: start)))
        } else {
            type = .named(try parseNamedType())
        }
        if try expectOptionalToken(.bang) {
            return .nonNull(NonNullType(type: type, loc: loc(from: start)))
        }
        return type
    }

    /// ```
    /// NamedType : Name
    /// ```
    mutating func parseNamedType() throws(SyntaxError) -> NamedType {
        let name = try parseName()
        return NamedType(name: name, loc: name.loc)
    }
}
