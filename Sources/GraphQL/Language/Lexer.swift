/// The GraphQL lexer (spec §2.1 "Source Text" and §2.1.6 "Lexical Tokens",
/// https://spec.graphql.org/September2025/#sec-Lexical-Tokens): turns the UTF-8 bytes of a
/// `Source` into tokens, one at a time, skipping ignored tokens.
///
/// Works on bytes with `Int` offsets, never on `String` or `Character`. Every look-ahead
/// past the current byte goes through `peek(_:)`, which is bounds-checked and returns nil
/// at the end of input; the scanning loops index only after their own `< count` test.
/// Errors are `SyntaxError`s worded like graphql-js's lexer and placed at the offending
/// character. `parse` refuses text that is not UTF-8 before lexing (naming the byte's
/// offset); the lexer alone reads an invalid byte as U+FFFD and reports that character.
///
/// The lexer reads the bytes through a buffer pointer that is valid only inside the
/// `withUnsafeBufferPointer` call around one parse (see `parse(_:options:)`); that
/// removes the reference counting of an array from every token and name.
struct Lexer {
    /// The document's UTF-8 bytes (`Source.utf8`), borrowed for the duration of one parse.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The current token: `.sof` before the first `advance()`, `.eof` at the end.
    private(set) var token: Token
    /// End offset of the token before `token`, i.e. the last token the parser consumed.
    private(set) var lastTokenEnd: Int
    /// The cooked value of the last quoted string token read; kept apart so that `Token`
    /// stays a plain value. Block strings are cooked only on request (see `tokenValue`).
    private var quotedValue: String

    /// The cooked value of the current token when it is a `.string` or `.blockString`.
    var tokenValue: String {
        guard token.kind == .blockString else { return quotedValue }
        return (try? readBlockString(from: token.start))?.1 ?? ""
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.token = Token(kind: .sof, start: 0, end: 0)
        self.lastTokenEnd = 0
        self.quotedValue = ""
    }

    /// Moves to the next token and returns it; stays on `.eof` once there.
    @inline(__always)
    mutating func advance() throws(SyntaxError) -> Token {
        lastTokenEnd = token.end
        if token.kind != .eof {
            token = try readToken(from: token.end)
        }
        return token
    }

    /// The token after the current one, without moving (the parser's one-token look-ahead).
    func lookahead() throws(SyntaxError) -> Token {
        guard token.kind != .eof else { return token }
        var ahead = self
        return try ahead.readToken(from: token.end)
    }

    /// The cooked value of string token `token`: `tokenValue` for the current token,
    /// otherwise read again (only error messages about a look-ahead token need that).
    func stringValue(of token: Token) -> String {
        if token.start == self.token.start { return tokenValue }
        var again = self
        _ = try? again.readToken(from: token.start)
        return again.tokenValue
    }

    /// The byte at `offset`, or nil past the end of input.
    @inline(__always)
    func peek(_ offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    /// The source text of a name or number token.
    @inline(__always)
    func text(of token: Token) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// True when `token` is the name `keyword`, compared byte for byte without a `String`.
    @inline(__always)
    func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        guard token.kind == .name, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
        return keyword.withUTF8Buffer { word in
            var i = 0
            while i < word.count {
                if bytes[token.start + i] != word[i] { return false }
                i += 1
            }
            return true
        }
    }

    // MARK: - Tokens

    /// Reads the token that starts at or after `start`, skipping ignored tokens.
    ///
    /// ```
    /// Token :: Punctuator | Name | IntValue | FloatValue | StringValue
    /// Ignored :: UnicodeBOM | WhiteSpace | LineTerminator | Comment | Comma
    /// ```
    ///
    /// A quoted string's cooked value is kept for `tokenValue`; a block string's is cooked on request.
    mutating func readToken(from start: Int) throws(SyntaxError) -> Token {
        let count = bytes.count
        var position = start
        while position < count {
            let byte = bytes[position]
            // WhiteSpace :: Horizontal Tab (U+0009) | Space (U+0020); Comma :: ,
            // LineTerminator :: New Line (U+000A) | Carriage Return (U+000D) (CRLF is two of these)
            // Runs of these (indentation) are the commonest bytes, so they skip the switch.
            if byte <= 0x2C && (Lexer.ignoredMask >> UInt64(byte)) & 1 != 0 {
                position += 1
                continue
            }
            switch byte {
            // UnicodeBOM :: Byte Order Mark (U+FEFF), UTF-8 EF BB BF
            case 0xEF where peek(position + 1) == 0xBB && peek(position + 2) == 0xBF:
                position += 3
                continue
            // Comment :: # CommentChar*
            case 0x23:
                position = skipComment(from: position + 1)
                continue
            // Punctuator :: one of ! $ & ( ) ... : = @ [ ] { | }
            case 0x21: return Token(kind: .bang, start: position, end: position + 1)
            case 0x24: return Token(kind: .dollar, start: position, end: position + 1)
            case 0x26: return Token(kind: .amp, start: position, end: position + 1)
            case 0x28: return Token(kind: .parenL, start: position, end: position + 1)
            case 0x29: return Token(kind: .parenR, start: position, end: position + 1)
            case 0x2E:
                if peek(position + 1) == 0x2E && peek(position + 2) == 0x2E {
                    return Token(kind: .spread, start: position, end: position + 3)
                }
            case 0x3A: return Token(kind: .colon, start: position, end: position + 1)
            case 0x3D: return Token(kind: .equals, start: position, end: position + 1)
            case 0x40: return Token(kind: .at, start: position, end: position + 1)
            case 0x5B: return Token(kind: .bracketL, start: position, end: position + 1)
            case 0x5D: return Token(kind: .bracketR, start: position, end: position + 1)
            case 0x7B: return Token(kind: .braceL, start: position, end: position + 1)
            case 0x7C: return Token(kind: .pipe, start: position, end: position + 1)
            case 0x7D: return Token(kind: .braceR, start: position, end: position + 1)
            // Name :: NameStart NameContinue*
            case 0x41...0x5A, 0x5F, 0x61...0x7A:
                return readName(from: position)
            // IntValue, FloatValue: NegativeSign? then a Digit
            case 0x2D, 0x30...0x39:
                return try readNumber(from: position)
            // StringValue: " or """
            case 0x22:
                if peek(position + 1) == 0x22 && peek(position + 2) == 0x22 {
                    return try readBlockString(from: position, cooking: false).0
                }
                let (token, value) = try readString(from: position)
                quotedValue = value
                return token
            default:
                break
            }
            throw unexpectedCharacter(at: position)
        }
        return Token(kind: .eof, start: count, end: count)
    }

    /// Bits 0x09, 0x0A, 0x0D, 0x20 and 0x2C: the single-byte ignored tokens.
    private static let ignoredMask: UInt64 = 1 << 0x09 | 1 << 0x0A | 1 << 0x0D | 1 << 0x20 | 1 << 0x2C

    /// The error for a character that starts no token, worded as graphql-js words it.
    private func unexpectedCharacter(at position: Int) -> SyntaxError {
        if bytes[position] == 0x27 {
            return SyntaxError(
                position: position,
                description: "Unexpected single quote character ('), did you mean to use a double quote (\")?")
        }
        return SyntaxError(position: position, description: "Unexpected character: \(printCharacter(at: position)).")
    }

    /// Skips a comment's characters, returning the offset of the line terminator or the end.
    ///
    /// ```
    /// Comment :: # CommentChar*
    /// CommentChar :: SourceCharacter but not LineTerminator
    /// ```
    private func skipComment(from start: Int) -> Int {
        let count = bytes.count
        var position = start
        while position < count {
            let byte = bytes[position]
            if byte == 0x0A || byte == 0x0D { break }
            position += 1
        }
        return position
    }

    /// Reads a name.
    ///
    /// ```
    /// Name :: NameStart NameContinue* [lookahead != NameContinue]
    /// ```
    @inline(__always)
    private func readName(from start: Int) -> Token {
        let count = bytes.count
        var position = start + 1
        while position < count && isNameContinue(bytes[position]) {
            position += 1
        }
        return Token(kind: .name, start: start, end: position)
    }

    /// Reads an `IntValue` or `FloatValue`, rejecting what may not follow a number.
    ///
    /// ```
    /// IntValue :: IntegerPart [lookahead != {Digit, ., NameStart}]
    /// FloatValue ::
    ///   - IntegerPart FractionalPart ExponentPart [lookahead != {Digit, ., NameStart}]
    ///   - IntegerPart FractionalPart [lookahead != {Digit, ., NameStart}]
    ///   - IntegerPart ExponentPart [lookahead != {Digit, ., NameStart}]
    /// IntegerPart :: NegativeSign? 0 | NegativeSign? NonZeroDigit Digit*
    /// FractionalPart :: . Digit+
    /// ExponentPart :: ExponentIndicator Sign? Digit+
    /// ```
    private func readNumber(from start: Int) throws(SyntaxError) -> Token {
        var position = start
        var isFloat = false
        if bytes[position] == 0x2D {
            position += 1
        }
        if peek(position) == 0x30 {
            position += 1
            if let next = peek(position), isDigit(next) {
                throw SyntaxError(
                    position: position,
                    description: "Invalid number, unexpected digit after 0: \(printCharacter(at: position)).")
            }
        } else {
            position = try readDigits(from: position)
        }
        if peek(position) == 0x2E {
            isFloat = true
            position = try readDigits(from: position + 1)
        }
        if let next = peek(position), next | 0x20 == 0x65 {
            isFloat = true
            position += 1
            if let sign = peek(position), sign == 0x2B || sign == 0x2D {
                position += 1
            }
            position = try readDigits(from: position)
        }
        if let next = peek(position), next == 0x2E || isNameStart(next) {
            throw SyntaxError(
                position: position,
                description: "Invalid number, expected digit but got: \(printCharacter(at: position)).")
        }
        return Token(kind: isFloat ? .float : .int, start: start, end: position)
    }

    /// Reads `Digit+` starting at `start`, returning the offset after the last digit.
    private func readDigits(from start: Int) throws(SyntaxError) -> Int {
        guard let first = peek(start), isDigit(first) else {
            throw SyntaxError(
                position: start, description: "Invalid number, expected digit but got: \(printCharacter(at: start)).")
        }
        let count = bytes.count
        var position = start + 1
        while position < count && isDigit(bytes[position]) {
            position += 1
        }
        return position
    }

    // MARK: - Characters in messages

    /// The Unicode scalar starting at byte `position` and its length in bytes; an invalid
    /// or truncated UTF-8 sequence reads as U+FFFD of length 1.
    func scalar(at position: Int) -> (value: UInt32, length: Int) {
        let lead = bytes[position]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            length = 4
            value = UInt32(lead & 0x07)
        default:
            return (0xFFFD, 1)
        }
        for i in 1..<length {
            guard let next = peek(position + i), next & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, isUnicodeScalarValue(value) else { return (0xFFFD, 1) }
        return (value, length)
    }

    /// The character at `position` as graphql-js's messages show it: `"x"` for printable
    /// ASCII (`'"'` for a double quote), `U+00E9` otherwise, `<EOF>` past the end.
    func printCharacter(at position: Int) -> String {
        guard position < bytes.count else { return TokenKind.eof.description }
        let code = scalar(at: position).value
        if code >= 0x20 && code <= 0x7E {
            let character = String(UnicodeScalar(UInt8(code)))
            return code == 0x22 ? "'\"'" : "\"\(character)\""
        }
        let hex = String(code, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The source text of `characters` characters from byte `start` (fewer at the end of
    /// input), for quoting a bad escape sequence in a message.
    func excerpt(from start: Int, characters: Int) -> String {
        var end = start
        var taken = 0
        while taken < characters && end < bytes.count {
            end += scalar(at: end).length
            taken += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
