/// Parses a GraphQL document: spec §2 (executable definitions) and §3 (type system
/// definitions and extensions), in one grammar as graphql-js's `parse()` does.
/// Implements "Language" (https://spec.graphql.org/September2025/#sec-Language) and the
/// type system grammar (https://spec.graphql.org/September2025/#sec-Type-System).
///
/// - Parameters:
///   - source: the document text (UTF-8 bytes; a leading BOM and any line terminators allowed).
///   - options: `maxTokens` and `maxDepth` limits for untrusted input.
/// - Returns: the `Document`, each node's `loc` holding byte offsets into `source.utf8`.
/// - Throws: `GraphQLError` for the first syntax error, with graphql-js's message
///   (`Syntax Error: Expected Name, found "}".`) and the 1-based line and column of the
///   offending token or character; also when the document has more than
///   `options.maxTokens` tokens or nests deeper than `options.maxDepth`.
public func parse(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
    do {
        try checkSourceSize(source)
        return try source.utf8.withUnsafeBufferPointer { bytes throws(SyntaxError) in
            var parser = Parser(bytes, of: source.utf8, options: options)
            return try parser.parseDocument()
        }
    } catch {
        throw syntaxError(source: source, position: error.position, description: error.description)
    }
}

/// Parses one value literal, e.g. `[1, {a: $v}]` (graphql-js `parseValue`): the whole source
/// must be that value. Variables are allowed, as in `Value[~Const]` (§2.9).
///
/// - Throws: `GraphQLError` with the first syntax error, as `parse(_:options:)`.
public func parseValue(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Value {
    try parseWhole(source, options: options) { p throws(SyntaxError) in try p.parseValueLiteral(isConst: false) }
}

/// Parses one constant value literal (graphql-js `parseConstValue`): like `parseValue`,
/// but a variable is a syntax error (`Value[Const]`, §2.9).
///
/// - Throws: `GraphQLError` with the first syntax error, as `parse(_:options:)`.
public func parseConstValue(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Value {
    try parseWhole(source, options: options) { p throws(SyntaxError) in try p.parseValueLiteral(isConst: true) }
}

/// Parses one type reference, e.g. `[Track!]!` (graphql-js `parseType`, §2.11 `Type`).
///
/// - Throws: `GraphQLError` with the first syntax error, as `parse(_:options:)`.
public func parseType(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> TypeNode {
    try parseWhole(source, options: options) { p throws(SyntaxError) in try p.parseTypeReference() }
}

/// Runs `production` over the whole of `source`: start of input, the production, end of input.
private func parseWhole<T>(
    _ source: Source, options: ParseOptions, _ production: (inout Parser) throws(SyntaxError) -> T
) throws(GraphQLError) -> T {
    do {
        try checkSourceSize(source)
        return try source.utf8.withUnsafeBufferPointer { bytes throws(SyntaxError) in
            var parser = Parser(bytes, of: source.utf8, options: options)
            try parser.expectToken(.sof)
            let result = try production(&parser)
            try parser.expectToken(.eof)
            return result
        }
    } catch {
        throw syntaxError(source: source, position: error.position, description: error.description)
    }
}

/// Refuses a source whose byte offsets would not fit a `Location`.
/// The checks of the whole text before lexing: its size, and that it is UTF-8 (spec §2.1: a
/// document is Unicode text; a byte that is not part of a UTF-8 sequence is reported where it
/// is, rather than read as a U+FFFD the client never sent).
private func checkSourceSize(_ source: Source) throws(SyntaxError) {
    if source.utf8.count > Location.maxSourceBytes {
        throw SyntaxError(position: 0, description: "Document too large: over \(Location.maxSourceBytes) bytes.")
    }
    if let offset = UTF8Validation.firstInvalidOffset(in: source.utf8) {
        throw SyntaxError(
            position: offset,
            description: "Invalid UTF-8: \(UTF8Validation.describe(source.utf8, at: offset)) is not part of a UTF-8 "
                + "sequence.")
    }
}

/// Parses `text` as a document; the same as `parse(Source(text), options:)`.
public func parse(_ text: String, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
    try parse(Source(text), options: options)
}

/// A recursive-descent parser over the `Lexer`'s tokens, one method `parse<Production>`
/// per grammar production, named and shaped like graphql-js's `Parser`.
///
/// Every method that can recurse (selection sets, list and object values, list types)
/// goes through `enterNesting`, so recursion is bounded by `ParseOptions.maxDepth` and
/// hostile nesting ends in a syntax error rather than a stack overflow.
struct Parser {
    var lexer: Lexer
    /// `ParseOptions.maxTokens`, `Int.max` when unlimited.
    let maxTokens: Int
    let maxDepth: Int
    /// Tokens consumed so far, not counting `<EOF>`.
    private(set) var tokenCount = 0
    /// Current nesting of selection sets, list and object values and list types.
    private(set) var depth = 0

    /// The document's bytes (the storage `lexer` reads), kept by parsed descriptions.
    let source: [UInt8]

    /// A parser over `bytes`, the storage of `source`, which must stay valid while it is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>, of source: [UInt8], options: ParseOptions = ParseOptions()) {
        self.lexer = Lexer(bytes)
        self.source = source
        self.maxTokens = options.maxTokens ?? Int.max
        self.maxDepth = options.maxDepth
    }

    // MARK: - Document

    /// ```
    /// Document : Definition+
    /// ```
    mutating func parseDocument() throws(SyntaxError) -> Document {
        let start = lexer.token
        let definitions = try many(.sof, { p throws(SyntaxError) in try p.parseDefinition() }, .eof)
        return Document(definitions: definitions, loc: Location(start: start.start, end: lexer.token.end))
    }

    /// ```
    /// Definition :
    ///   - ExecutableDefinition
    ///   - TypeSystemDefinitionOrExtension
    /// ```
    ///
    /// Descriptions may open operations, fragments and type system definitions, so a
    /// leading string means looking one token further for the keyword.
    mutating func parseDefinition() throws(SyntaxError) -> Definition {
        if peek(.braceL) {
            return .operation(try parseOperationDefinition())
        }
        let hasDescription = peekDescription()
        let keywordToken = hasDescription ? try lexer.lookahead() : lexer.token
        if hasDescription && keywordToken.kind == .braceL {
            throw SyntaxError(
                position: lexer.token.start,
                description: "Unexpected description, descriptions are not supported on shorthand queries.")
        }
        if keywordToken.kind == .name {
            switch lexer.text(of: keywordToken) {
            case "schema": return .schema(try parseSchemaDefinition())
            case "scalar": return .scalarType(try parseScalarTypeDefinition())
            case "type": return .objectType(try parseObjectTypeDefinition())
            case "interface": return .interfaceType(try parseInterfaceTypeDefinition())
            case "union": return .unionType(try parseUnionTypeDefinition())
            case "enum": return .enumType(try parseEnumTypeDefinition())
            case "input": return .inputObjectType(try parseInputObjectTypeDefinition())
            case "directive": return .directive(try parseDirectiveDefinition())
            case "query", "mutation", "subscription": return .operation(try parseOperationDefinition())
            case "fragment": return .fragment(try parseFragmentDefinition())
            case "extend":
                if hasDescription {
                    throw SyntaxError(
                        position: lexer.token.start,
                        description: "Unexpected description, only GraphQL definitions support descriptions.")
                }
                return try parseTypeSystemExtension()
            default:
                if hasDescription {
                    throw SyntaxError(
                        position: lexer.token.start,
                        description: "Unexpected description, only GraphQL definitions support descriptions.")
                }
            }
        }
        throw unexpected(keywordToken)
    }

    // MARK: - Tokens

    /// Moves to the next token, counting it against `maxTokens`.
    @inline(__always)
    mutating func advanceLexer() throws(SyntaxError) {
        let token = try lexer.advance()
        if token.kind != .eof {
            tokenCount += 1
            if tokenCount > maxTokens {
                throw tooManyTokens(at: token)
            }
        }
    }

    @inline(never)
    private func tooManyTokens(at token: Token) -> SyntaxError {
        SyntaxError(
            position: token.start, description: "Document contains more than \(maxTokens) tokens. Parsing aborted.")
    }

    /// True when the current token is of `kind`.
    @inline(__always)
    func peek(_ kind: TokenKind) -> Bool {
        lexer.token.kind == kind
    }

    /// Consumes a token of `kind` and returns it, or fails with `Expected <kind>, found <token>.`
    @inline(__always)
    @discardableResult
    mutating func expectToken(_ kind: TokenKind) throws(SyntaxError) -> Token {
        let token = lexer.token
        guard token.kind == kind else {
            throw expected(kind, found: token)
        }
        try advanceLexer()
        return token
    }

    /// The error `Expected <kind>, found <token>.`, built out of line to keep the hot
    /// paths that may throw it small.
    @inline(never)
    func expected(_ kind: TokenKind, found token: Token) -> SyntaxError {
        SyntaxError(position: token.start, description: "Expected \(kind.quotedDescription), found \(describe(token)).")
    }

    /// Consumes a token of `kind` if it is next; says whether it did.
    @inline(__always)
    mutating func expectOptionalToken(_ kind: TokenKind) throws(SyntaxError) -> Bool {
        guard lexer.token.kind == kind else { return false }
        try advanceLexer()
        return true
    }

    /// Consumes the name `keyword`, or fails with `Expected "<keyword>", found <token>.`
    mutating func expectKeyword(_ keyword: StaticString) throws(SyntaxError) {
        let token = lexer.token
        guard lexer.isKeyword(token, keyword) else {
            throw SyntaxError(position: token.start, description: "Expected \"\(keyword)\", found \(describe(token)).")
        }
        try advanceLexer()
    }

    /// Consumes the name `keyword` if it is next; says whether it did.
    mutating func expectOptionalKeyword(_ keyword: StaticString) throws(SyntaxError) -> Bool {
        guard lexer.isKeyword(lexer.token, keyword) else { return false }
        try advanceLexer()
        return true
    }

    /// The error `Unexpected <token>.` for `token`, by default the current one.
    @inline(never)
    func unexpected(_ token: Token? = nil) -> SyntaxError {
        let token = token ?? lexer.token
        return SyntaxError(position: token.start, description: "Unexpected \(describe(token)).")
    }

    /// A token as graphql-js's messages show it: `"{"`, `<EOF>`, `Name "foo"`, `String "x"`.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .name, .int, .float:
            "\(token.kind) \"\(lexer.text(of: token))\""
        case .string, .blockString:
            "\(token.kind) \"\(lexer.stringValue(of: token))\""
        default:
            token.kind.quotedDescription
        }
    }

    /// The location of a node that began with `start` and ends with the last consumed token.
    @inline(__always)
    func loc(from start: Token) -> Location {
        Location(start: start.start, end: lexer.lastTokenEnd)
    }

    /// Enters one more level of nesting at `token`, failing past `maxDepth`. Callers
    /// leave with `depth -= 1` (`leaveNesting()`).
    @inline(__always)
    mutating func enterNesting(at token: Token) throws(SyntaxError) {
        depth += 1
        if depth > maxDepth {
            throw tooDeep(at: token)
        }
    }

    @inline(never)
    private func tooDeep(at token: Token) -> SyntaxError {
        SyntaxError(
            position: token.start, description: "Document nesting is deeper than \(maxDepth) levels. Parsing aborted.")
    }

    @inline(__always)
    mutating func leaveNesting() {
        depth -= 1
    }

    // MARK: - Lists of nodes

    /// `open item* close`: possibly empty (graphql-js `any`).
    @inline(__always)
    mutating func any<T>(
        _ open: TokenKind, _ item: (inout Parser) throws(SyntaxError) -> T, _ close: TokenKind
    ) throws(SyntaxError) -> [T] {
        try expectToken(open)
        var nodes: [T] = []
        while try !expectOptionalToken(close) {
            nodes.append(try item(&self))
        }
        return exactlySized(nodes)
    }

    /// `(open item+ close)?`: empty when `open` is absent (graphql-js `optionalMany`).
    /// `capacity` is room to make up front, saving the first regrowths of short lists.
    @inline(__always)
    mutating func optionalMany<T>(
        _ open: TokenKind, _ item: (inout Parser) throws(SyntaxError) -> T, _ close: TokenKind, capacity: Int = 0
    ) throws(SyntaxError) -> [T] {
        guard try expectOptionalToken(open) else { return [] }
        var nodes: [T] = []
        nodes.reserveCapacity(capacity)
        repeat {
            nodes.append(try item(&self))
        } while try !expectOptionalToken(close)
        return exactlySized(nodes)
    }

    /// `open item+ close` (graphql-js `many`).
    @inline(__always)
    mutating func many<T>(
        _ open: TokenKind, _ item: (inout Parser) throws(SyntaxError) -> T, _ close: TokenKind
    ) throws(SyntaxError) -> [T] {
        try expectToken(open)
        var nodes: [T] = []
        repeat {
            nodes.append(try item(&self))
        } while try !expectOptionalToken(close)
        return exactlySized(nodes)
    }

    /// `delimiter? item (delimiter item)*` (graphql-js `delimitedMany`).
    @inline(__always)
    mutating func delimitedMany<T>(
        _ delimiter: TokenKind, _ item: (inout Parser) throws(SyntaxError) -> T
    ) throws(SyntaxError) -> [T] {
        _ = try expectOptionalToken(delimiter)
        var nodes: [T] = []
        repeat {
            nodes.append(try item(&self))
        } while try expectOptionalToken(delimiter)
        return exactlySized(nodes)
    }

    /// `nodes` in storage of exactly their count. Lists grow by doubling, so a parsed list can
    /// hold up to twice the room it needs: over a large SDL document that slack was a fifth
    /// of the AST. Small slack is kept, as copying would cost more time than it saves memory.
    @inline(__always)
    func exactlySized<T>(_ nodes: [T]) -> [T] {
        guard (nodes.capacity - nodes.count) * MemoryLayout<T>.stride >= 64 else { return nodes }
        return [T](unsafeUninitializedCapacity: nodes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: nodes)
        }
    }
}
