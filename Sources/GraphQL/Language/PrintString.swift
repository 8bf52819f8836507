// How string literals are printed: the quoted form with escapes (`printString`) and the
// `"""` block form (`printBlockString`). Both follow graphql-js 16 (`printString.ts`,
// `blockString.ts`) as graphql-core 3.2.14 implements them, so printed documents match
// the conformance oracle byte for byte. Lengths count Unicode scalar values, as the
// oracle (Python) does; graphql-js counts UTF-16 units, which differs only off the BMP.

/// Prints `value` as a quoted GraphQL `StringValue` literal (spec §2.9.4 "String Value").
///
/// `"` and `\` are escaped, `\b \t \n \f \r` use their short escapes, and every other
/// C0 control (U+0000–U+001F), DEL and C1 control (U+007F–U+009F) becomes `\uXXXX` with
/// upper-case hex. Everything else, non-ASCII included, is printed as is.
///
/// - Parameter value: the cooked string value (escapes already resolved).
/// - Returns: the literal, quotes included, e.g. `"say \"hi\"\n"`.
public func printString(_ value: String) -> String {
    // Most strings need no escape at all: copy them whole.
    guard value.utf8.contains(where: needsEscapeCheck) else { return "\"" + value + "\"" }
    var out = String.UnicodeScalarView()
    out.append("\"")
    for scalar in value.unicodeScalars {
        switch scalar.value {
        case 0x22: out.append(contentsOf: #"\""#.unicodeScalars)
        case 0x5C: out.append(contentsOf: #"\\"#.unicodeScalars)
        case 0x08: out.append(contentsOf: #"\b"#.unicodeScalars)
        case 0x09: out.append(contentsOf: #"\t"#.unicodeScalars)
        case 0x0A: out.append(contentsOf: #"\n"#.unicodeScalars)
        case 0x0C: out.append(contentsOf: #"\f"#.unicodeScalars)
        case 0x0D: out.append(contentsOf: #"\r"#.unicodeScalars)
        case 0x00...0x1F, 0x7F...0x9F: out.append(contentsOf: unicodeEscape(scalar.value).unicodeScalars)
        default: out.append(scalar)
        }
    }
    out.append("\"")
    return String(out)
}

/// True for UTF-8 bytes that may start an escaped character: C0 controls, `"`, `\`, DEL,
/// and 0xC2, the lead byte of U+0080–U+00BF (C1 controls among them; a false alarm only
/// costs the slow path).
private func needsEscapeCheck(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2
}

/// `\u` and four upper-case hex digits, for the control characters `printString` escapes.
private func unicodeEscape(_ code: UInt32) -> String {
    let hex = String(code, radix: 16, uppercase: true)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}

/// Prints `value` as a `"""` block string literal (spec §2.9.4 "Block Strings"), laid out
/// the way graphql-js 16 `printBlockString` does, so that parsing the result with
/// BlockStringValue() gives `value` back.
///
/// Rules, in the oracle's terms: `"""` inside the value is escaped as `\"""`; the literal
/// gets a leading and a trailing line break ("multiple lines" form) when the value has
/// several lines, is longer than 70 scalars, ends with `"` or `\`, ends with an escaped
/// `"""`, or when every line after the first starts with a space or tab or is empty (then
/// the leading break protects the indentation from being stripped). A single-line value
/// starting with a space or tab never gets the leading break, since it would strip that
/// space. With `minimize`, only the breaks needed for correctness are kept.
///
/// - Parameters:
///   - value: the block string's value; lines are split on `\r\n`, `\r` and `\n`.
///   - minimize: print as compactly as possible (graphql-js's `minimize` option).
/// - Returns: the literal, triple quotes included.
public func printBlockString(_ value: String, minimize: Bool = false) -> String {
    // Works on UTF-8 bytes: every character the rules look at is ASCII, and ASCII bytes
    // never occur inside a multi-byte sequence.
    let valueBytes = value.utf8
    let escaped = escapeTripleQuotes(valueBytes)

    // Split on the GraphQL line terminators only (CRLF, CR, LF), looking at each line's start.
    var lineCount = 1
    var laterLinesIndented = true
    var i = 0
    while i < escaped.count {
        let byte = escaped[i]
        if byte == 0x0D || byte == 0x0A {
            if byte == 0x0D && i + 1 < escaped.count && escaped[i + 1] == 0x0A { i += 1 }
            lineCount += 1
            if i + 1 < escaped.count {
                switch escaped[i + 1] {
                case 0x0D, 0x0A, 0x20, 0x09: break
                default: laterLinesIndented = false
                }
            }
        }
        i += 1
    }
    let isSingleLine = lineCount == 1
    let forceLeadingNewLine = lineCount > 1 && laterLinesIndented
    let hasTrailingTripleQuotes = escaped.count >= 4 && escaped.suffix(4).elementsEqual([0x5C, 0x22, 0x22, 0x22])
    let hasTrailingQuote = valueBytes.last == 0x22 && !hasTrailingTripleQuotes
    let hasTrailingSlash = valueBytes.last == 0x5C
    let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
    // The oracle's length is in scalars: count the bytes that start one.
    let isLong = valueBytes.count > 70 && valueBytes.lazy.filter { $0 & 0xC0 != 0x80 }.count > 70
    let printAsMultipleLines =
        !minimize
        && (!isSingleLine || isLong || forceTrailingNewLine || forceLeadingNewLine || hasTrailingTripleQuotes)
    let first = valueBytes.first
    let skipLeadingNewLine = isSingleLine && (first == 0x20 || first == 0x09)

    var out: [UInt8] = [0x22, 0x22, 0x22]
    out.reserveCapacity(escaped.count + 8)
    if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { out.append(0x0A) }
    out.append(contentsOf: escaped)
    if printAsMultipleLines || forceTrailingNewLine { out.append(0x0A) }
    out.append(contentsOf: [0x22, 0x22, 0x22])
    return String(decoding: out, as: UTF8.self)
}

/// `value`'s bytes with every `"""` turned into `\"""`, scanning left to right.
private func escapeTripleQuotes(_ value: String.UTF8View) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(value.count)
    var quotes = 0
    for byte in value {
        if byte == 0x22 {
            quotes += 1
            if quotes == 3 {
                out.append(contentsOf: [0x5C, 0x22, 0x22, 0x22])
                quotes = 0
            }
        } else {
            if quotes > 0 { out.append(contentsOf: repeatElement(0x22, count: quotes)) }
            quotes = 0
            out.append(byte)
        }
    }
    if quotes > 0 { out.append(contentsOf: repeatElement(0x22, count: quotes)) }
    return out
}
