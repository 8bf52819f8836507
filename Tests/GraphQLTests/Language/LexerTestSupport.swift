// Helpers shared by the language tests: run the lexer over a text, and read a syntax error.
@testable import GraphQL

/// One token as the tests compare it: kind, byte range and text (the source text of a
/// name or number, the cooked value of a string, empty for punctuators).
struct LexedToken: Equatable, CustomStringConvertible {
    var kind: TokenKind
    var start: Int
    var end: Int
    var text: String

    init(_ kind: TokenKind, _ start: Int, _ end: Int, _ text: String = "") {
        self.kind = kind
        self.start = start
        self.end = end
        self.text = text
    }

    var description: String { "\(kind)[\(start)..<\(end)] \(text.debugDescription)" }
}

/// Every token of `text` up to and excluding `<EOF>`.
func lexAll(_ text: String) throws(SyntaxError) -> [LexedToken] {
    try lexAll(bytes: Array(text.utf8))
}

/// Every token of `bytes` up to and excluding `<EOF>`.
func lexAll(bytes: [UInt8]) throws(SyntaxError) -> [LexedToken] {
    try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in
        var lexer = Lexer(buffer)
        var tokens: [LexedToken] = []
        while true {
            let token = try lexer.advance()
            switch token.kind {
            case .eof:
                return tokens
            case .name, .int, .float:
                tokens.append(LexedToken(token.kind, token.start, token.end, lexer.text(of: token)))
            case .string, .blockString:
                tokens.append(LexedToken(token.kind, token.start, token.end, lexer.tokenValue))
            default:
                tokens.append(LexedToken(token.kind, token.start, token.end))
            }
        }
    }
}

/// The cooked value of the single string token that `text` holds.
func stringValue(_ text: String) throws(SyntaxError) -> String {
    let tokens = try lexAll(text)
    return tokens.first?.text ?? "<no token>"
}

/// A syntax error as the tests compare it: message and 1-based line and column.
struct ReportedError: Equatable, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int

    init(_ message: String, _ line: Int, _ column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    init(_ error: GraphQLError) {
        self.init(error.message, error.locations.first?.line ?? 0, error.locations.first?.column ?? 0)
    }

    var description: String { "\(message) (\(line):\(column))" }
}

/// The error the lexer reports for `text` (lexing to the end), or nil when it lexes.
func lexError(_ text: String) -> ReportedError? {
    lexError(bytes: Array(text.utf8))
}

/// The error the lexer reports for `bytes`, or nil when they lex.
func lexError(bytes: [UInt8]) -> ReportedError? {
    do {
        _ = try lexAll(bytes: bytes)
        return nil
    } catch {
        return ReportedError(
            syntaxError(source: Source(bytes: bytes), position: error.position, description: error.description))
    }
}

/// The error `parse` reports for `text`, or nil when it parses.
func parseError(_ text: String, options: ParseOptions = ParseOptions()) -> ReportedError? {
    do {
        _ = try parse(Source(text), options: options)
        return nil
    } catch {
        return ReportedError(error)
    }
}
