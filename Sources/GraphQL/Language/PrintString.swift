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
  let scalars = escapeTripleQuotes(value)

  // Split on the GraphQL line terminators only (CRLF, CR, LF), looking at each line's start.
  var lineCount = 1
  var laterLinesIndented = true
  var i = 0
  while i < scalars.count {
    let s = scalars[i]
    if s == "\r" || s == "\n" {
      if s == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" { i += 1 }
      lineCount += 1
      let next = i + 1 < scalars.count ? scalars[i + 1] : nil
      if let next, next != "\r", next != "\n", next != " ", next != "\t" { laterLinesIndented = false }
    }
    i += 1
  }
  let isSingleLine = lineCount == 1
  let forceLeadingNewLine = lineCount > 1 && laterLinesIndented
  let hasTrailingTripleQuotes = scalars.count >= 4 && scalars.suffix(4).elementsEqual("\\\"\"\"".unicodeScalars)
  let valueScalars = value.unicodeScalars
  let hasTrailingQuote = valueScalars.last == "\"" && !hasTrailingTripleQuotes
  let hasTrailingSlash = valueScalars.last == "\\"
  let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
  let printAsMultipleLines =
    !minimize
    && (!isSingleLine || valueScalars.count > 70 || forceTrailingNewLine || forceLeadingNewLine
      || hasTrailingTripleQuotes)
  let first = valueScalars.first
  let skipLeadingNewLine = isSingleLine && (first == " " || first == "\t")

  var out = "\"\"\""
  if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { out += "\n" }
  out.unicodeScalars.append(contentsOf: scalars)
  if printAsMultipleLines || forceTrailingNewLine { out += "\n" }
  out += "\"\"\""
  return out
}

/// `value`'s scalars with every `"""` turned into `\"""`, scanning left to right.
private func escapeTripleQuotes(_ value: String) -> [Unicode.Scalar] {
  let input = Array(value.unicodeScalars)
  var out: [Unicode.Scalar] = []
  out.reserveCapacity(input.count)
  var i = 0
  while i < input.count {
    if input[i] == "\"" && i + 2 < input.count && input[i + 1] == "\"" && input[i + 2] == "\"" {
      out.append(contentsOf: ["\\", "\"", "\"", "\""])
      i += 3
    } else {
      out.append(input[i])
      i += 1
    }
  }
  return out
}
