// String tokens (spec §2.9.4 "String Value", https://spec.graphql.org/September2025/#sec-String-Value):
// quoted strings with escape sequences, and block strings, whose raw lines go through
// BlockStringValue() (BlockString.swift).

extension Lexer {
    /// Reads a quoted string, resolving its escape sequences.
    ///
    /// ```
    /// StringValue :: " StringCharacter* " [lookahead != "]
    /// StringCharacter ::
    ///   - SourceCharacter but not " or \ or LineTerminator
    ///   - \u EscapedUnicode
    ///   - \ EscapedCharacter
    /// ```
    ///
    /// A string without escapes becomes its `String` in one step; otherwise the cooked
    /// UTF-8 is gathered chunk by chunk.
    func readString(from start: Int) throws(SyntaxError) -> (Token, String) {
        let count = bytes.count
        var position = start + 1
        var chunkStart = position
        var cooked: [UInt8] = []
        var hasEscapes = false
        while position < count {
            let byte = bytes[position]
            // `"`, `\`, LF and CR are also the bytes a block string stops at.
            if !Lexer.isBlockStringStop(byte) {
                position += 1
                continue
            }
            if byte == 0x22 {
                let value: String
                if hasEscapes {
                    cooked.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                    value = String(decoding: cooked, as: UTF8.self)
                } else {
                    value = String(decoding: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]), as: UTF8.self)
                }
                return (Token(kind: .string, start: start, end: position + 1), value)
            }
            if byte == 0x5C {
                if !hasEscapes {
                    hasEscapes = true
                    cooked.reserveCapacity(position - chunkStart + 16)
                }
                cooked.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                let escape = try readEscapeSequence(at: position)
                appendUTF8(escape.scalar, to: &cooked)
                position += escape.size
                chunkStart = position
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                break
            }
            position += 1
        }
        throw SyntaxError(position: position, description: "Unterminated string.")
    }

    /// Reads the escape sequence whose `\` is at `position`: its scalar and its size in bytes.
    private func readEscapeSequence(at position: Int) throws(SyntaxError) -> (scalar: UInt32, size: Int) {
        if peek(position + 1) == 0x75 {
            return peek(position + 2) == 0x7B
                ? try readEscapedUnicodeVariableWidth(at: position)
                : try readEscapedUnicodeFixedWidth(at: position)
        }
        return try readEscapedCharacter(at: position)
    }

    /// ```
    /// EscapedCharacter :: one of " \ / b f n r t
    /// ```
    private func readEscapedCharacter(at position: Int) throws(SyntaxError) -> (scalar: UInt32, size: Int) {
        switch peek(position + 1) {
        case 0x22: return (0x22, 2)  // "
        case 0x5C: return (0x5C, 2)  // \
        case 0x2F: return (0x2F, 2)  // /
        case 0x62: return (0x08, 2)  // b
        case 0x66: return (0x0C, 2)  // f
        case 0x6E: return (0x0A, 2)  // n
        case 0x72: return (0x0D, 2)  // r
        case 0x74: return (0x09, 2)  // t
        default:
            throw SyntaxError(
                position: position,
                description: "Invalid character escape sequence: \"\(excerpt(from: position, characters: 2))\".")
        }
    }

    /// `\u{…}`: one to eight hex digits in braces naming any Unicode scalar value.
    ///
    /// ```
    /// EscapedUnicode :: { HexDigit+ } (within Unicode scalar value range)
    /// ```
    ///
    /// The code point accumulates in 32 signed bits and the braces must close within 12
    /// characters, so the text quoted in the error is exactly graphql-js's.
    private func readEscapedUnicodeVariableWidth(at position: Int) throws(SyntaxError) -> (scalar: UInt32, size: Int) {
        var point: Int32 = 0
        var size = 3
        while size < 12 {
            let byte = peek(position + size)
            size += 1
            if byte == 0x7D {
                if size < 5 || point < 0 || !isUnicodeScalarValue(UInt32(point)) { break }
                return (UInt32(point), size)
            }
            guard let byte, let digit = hexDigitValue(byte) else { break }
            point = (point &<< 4) | Int32(digit)
            if point < 0 { break }
        }
        throw SyntaxError(
            position: position,
            description: "Invalid Unicode escape sequence: \"\(excerpt(from: position, characters: size))\".")
    }

    /// `\uXXXX`: four hex digits; a leading surrogate must be followed by an escaped
    /// trailing surrogate, and the pair names one supplementary scalar (legacy JSON form).
    ///
    /// ```
    /// EscapedUnicode ::
    ///   - HexDigit HexDigit HexDigit HexDigit
    ///   - \u HexDigit HexDigit HexDigit HexDigit (leading and trailing surrogate)
    /// ```
    private func readEscapedUnicodeFixedWidth(at position: Int) throws(SyntaxError) -> (scalar: UInt32, size: Int) {
        if let code = read16BitHexCode(at: position + 2) {
            if isUnicodeScalarValue(code) {
                return (code, 6)
            }
            if (0xD800...0xDBFF).contains(code), peek(position + 6) == 0x5C, peek(position + 7) == 0x75,
                let trailing = read16BitHexCode(at: position + 8), (0xDC00...0xDFFF).contains(trailing)
            {
                return (0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00), 12)
            }
        }
        throw SyntaxError(
            position: position,
            description: "Invalid Unicode escape sequence: \"\(excerpt(from: position, characters: 6))\".")
    }

    /// Four hex digits at `position` as a number, or nil if any is missing or not hex.
    private func read16BitHexCode(at position: Int) -> UInt32? {
        var code: UInt32 = 0
        for i in 0..<4 {
            guard let byte = peek(position + i), let digit = hexDigitValue(byte) else { return nil }
            code = code << 4 | digit
        }
        return code
    }

    /// Reads a block string, collecting its raw lines for BlockStringValue().
    ///
    /// ```
    /// StringValue :: """ BlockStringCharacter* """
    /// BlockStringCharacter ::
    ///   - SourceCharacter but not """ or \"""
    ///   - \"""
    /// ```
    ///
    /// Each line is a byte range of the source (without its line terminator); the
    /// backslash of each `\"""` is remembered and left out when the value is built. `\r\n`,
    /// `\r` and `\n` all end a line, so the value always uses `\n`.
    ///
    /// With `cooking` false only the token is found and the value is `""`: most block strings
    /// are descriptions, whose value the AST cooks only when it is read.
    func readBlockString(from start: Int, cooking: Bool = true) throws(SyntaxError) -> (Token, String) {
        let count = bytes.count
        var position = start + 3
        var lines: [Range<Int>] = []
        var escapedQuotes: [Int] = []
        var lineStart = position
        while position < count {
            let byte = bytes[position]
            // Most bytes are text: skip them with one test before the three checks below.
            if !Lexer.isBlockStringStop(byte) {
                position += 1
                continue
            }
            if byte == 0x22 && peek(position + 1) == 0x22 && peek(position + 2) == 0x22 {
                let token = Token(kind: .blockString, start: start, end: position + 3)
                guard cooking else { return (token, "") }
                lines.append(lineStart..<position)
                return (token, blockStringValue(lines: lines, of: bytes, droppingBytesAt: escapedQuotes))
            }
            if byte == 0x5C && peek(position + 1) == 0x22 && peek(position + 2) == 0x22 && peek(position + 3) == 0x22 {
                // Keep `"""` and drop only the backslash.
                if cooking { escapedQuotes.append(position) }
                position += 4
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                if cooking { lines.append(lineStart..<position) }
                position += (byte == 0x0D && peek(position + 1) == 0x0A) ? 2 : 1
                lineStart = position
                continue
            }
            position += 1
        }
        throw SyntaxError(position: position, description: "Unterminated string.")
    }

    /// True for the bytes a string must look at: `"`, `\`, LF and CR.
    @inline(__always)
    static func isBlockStringStop(_ byte: UInt8) -> Bool {
        byte == 0x5C || (byte <= 0x22 && (blockStringStopMask >> UInt64(byte)) & 1 != 0)
    }

    private static let blockStringStopMask: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << 0x22
}

/// Appends the UTF-8 encoding of scalar `code` (already checked to be a scalar value).
@inline(__always)
func appendUTF8(_ code: UInt32, to bytes: inout [UInt8]) {
    switch code {
    case 0..<0x80:
        bytes.append(UInt8(code))
    case 0x80..<0x800:
        bytes.append(UInt8(0xC0 | code >> 6))
        bytes.append(UInt8(0x80 | code & 0x3F))
    case 0x800..<0x10000:
        bytes.append(UInt8(0xE0 | code >> 12))
        bytes.append(UInt8(0x80 | code >> 6 & 0x3F))
        bytes.append(UInt8(0x80 | code & 0x3F))
    default:
        bytes.append(UInt8(0xF0 | code >> 18))
        bytes.append(UInt8(0x80 | code >> 12 & 0x3F))
        bytes.append(UInt8(0x80 | code >> 6 & 0x3F))
        bytes.append(UInt8(0x80 | code & 0x3F))
    }
}

/// The cooked value of the string token that starts at byte `start` of `source`, which the
/// lexer has already accepted (so reading it again cannot fail).
func cookedString(in source: [UInt8], at start: Int, block: Bool) -> String {
    source.withUnsafeBufferPointer { bytes in
        let lexer = Lexer(bytes)
        let cooked = block ? try? lexer.readBlockString(from: start) : try? lexer.readString(from: start)
        return cooked?.1 ?? ""
    }
}
