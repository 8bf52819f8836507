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
    return raw.withUnsafeBufferPointer { blockStringValue(lines: lines, of: $0, droppingBytesAt: []) }
}

/// BlockStringValue() over lines given as byte ranges of `raw` (no line terminators in
/// them), leaving out the bytes at the offsets in `dropped` (ascending: the backslashes of
/// `\"""`). The lexer passes ranges of the source itself, so no line is copied twice.
func blockStringValue(
    lines: [Range<Int>], of raw: UnsafeBufferPointer<UInt8>, droppingBytesAt dropped: [Int]
) -> String {
    var commonIndent = Int.max
    var firstNonBlank = -1
    var lastNonBlank = -1
    for index in lines.indices {
        let line = lines[index]
        let indent = leadingWhitespace(line, of: raw)
        if indent == line.count { continue }
        if firstNonBlank < 0 { firstNonBlank = index }
        lastNonBlank = index
        if index > 0 && indent < commonIndent { commonIndent = indent }
    }
    guard firstNonBlank >= 0 else { return "" }
    if commonIndent == Int.max { commonIndent = 0 }

    var value: [UInt8] = []
    value.reserveCapacity(lines[lastNonBlank].upperBound - lines[firstNonBlank].lowerBound)
    var nextDropped = 0
    for index in firstNonBlank...lastNonBlank {
        let line = lines[index]
        if index > firstNonBlank { value.append(0x0A) }
        var from = line.lowerBound + (index == 0 ? 0 : min(commonIndent, line.count))
        // A dropped byte is never part of the indentation, so it lies in from..<upperBound.
        while nextDropped < dropped.count && dropped[nextDropped] < line.upperBound {
            let at = dropped[nextDropped]
            if at >= from {
                value.append(contentsOf: UnsafeBufferPointer(rebasing: raw[from..<at]))
                from = at + 1
            }
            nextDropped += 1
        }
        value.append(contentsOf: UnsafeBufferPointer(rebasing: raw[from..<line.upperBound]))
    }
    return String(decoding: value, as: UTF8.self)
}

/// How many spaces and tabs open `line` (spec WhiteSpace, §2.1.3).
private func leadingWhitespace(_ line: Range<Int>, of raw: UnsafeBufferPointer<UInt8>) -> Int {
    var i = line.lowerBound
    while i < line.upperBound && (raw[i] == 0x20 || raw[i] == 0x09) {
        i += 1
    }
    return i - line.lowerBound
}
