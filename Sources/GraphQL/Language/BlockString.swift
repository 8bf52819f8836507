// BlockStringValue() (spec §2.9.4 "Block Strings"): how a block string's raw lines become
// its value. The printing side (choosing and writing a block string) is PrintString.swift.

/// The value of a block string: spec §2.9.4 BlockStringValue(rawValue),
/// https://spec.graphql.org/September2025/#BlockStringValue().
///
/// `rawValue` is the text between the `"""` quotes with `\"""` already turned into `"""`.
/// It is split at each line terminator (`\r\n`, `\r`, `\n`); the common indentation
/// (spaces and tabs) of the lines after the first that are not blank is removed from
/// every line after the first; whitespace-only lines at the start and end are dropped;
/// the rest are joined with `\n`.
///
/// - Parameter rawValue: the raw block string text.
/// - Returns: the cooked value, e.g. `"a\n  b"` for `"\n    a\n      b\n  "`.
public func blockStringValue(_ rawValue: String) -> String {
  let raw = Array(rawValue.utf8)
  var lines: [Range<Int>] = []
  var lineStart = 0
  var i = 0
  while i < raw.count {
    let byte = raw[i]
    if byte == 0x0A || byte == 0x0D {
      lines.append(lineStart..<i)
      i += (byte == 0x0D && i + 1 < raw.count && raw[i + 1] == 0x0A) ? 2 : 1
      lineStart = i
    } else {
      i += 1
    }
  }
  lines.append(lineStart..<raw.count)
  return blockStringValue(lines: lines, of: raw)
}

/// BlockStringValue() over lines given as byte ranges of `raw` (no line terminators in
/// them). The lexer builds exactly this shape, so no per-line array is made.
func blockStringValue(lines: [Range<Int>], of raw: [UInt8]) -> String {
  var commonIndent = Int.max
  var firstNonBlank = -1
  var lastNonBlank = -1
  for (index, line) in lines.enumerated() {
    let indent = leadingWhitespace(line, of: raw)
    if indent == line.count { continue }
    if firstNonBlank < 0 { firstNonBlank = index }
    lastNonBlank = index
    if index > 0 && indent < commonIndent { commonIndent = indent }
  }
  guard firstNonBlank >= 0 else { return "" }
  if commonIndent == Int.max { commonIndent = 0 }

  var value: [UInt8] = []
  value.reserveCapacity(raw.count)
  for index in firstNonBlank...lastNonBlank {
    let line = lines[index]
    if index > firstNonBlank { value.append(0x0A) }
    let drop = index == 0 ? 0 : min(commonIndent, line.count)
    value.append(contentsOf: raw[(line.lowerBound + drop)..<line.upperBound])
  }
  return String(decoding: value, as: UTF8.self)
}

/// How many spaces and tabs open `line` (spec WhiteSpace, §2.1.3).
private func leadingWhitespace(_ line: Range<Int>, of raw: [UInt8]) -> Int {
  var i = line.lowerBound
  while i < line.upperBound && (raw[i] == 0x20 || raw[i] == 0x09) {
    i += 1
  }
  return i - line.lowerBound
}
