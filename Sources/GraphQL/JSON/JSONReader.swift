/// A JSON text that could not be read: what was wrong and where (byte offset and the
/// 1-based line/column of that byte).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var line: Int
    public var column: Int
    /// Which rule the text broke, for callers that answer differently per kind (an upstream
    /// body nested too deep is named so, not just "not JSON").
    public var kind: Kind = .syntax

    public enum Kind: Sendable, Equatable {
        /// Not JSON grammar (RFC 8259 §2–7).
        case syntax
        /// Not UTF-8 (RFC 8259 §8.1).
        case invalidUTF8
        /// Valid so far, but arrays and objects nest deeper than `JSONReader.maxDepth`.
        case tooDeep
    }

    public var description: String { "JSON parse error at line \(line), column \(column): \(message)" }
}

/// Reads RFC 8259 JSON text into a `JSONValue`.
///
/// Numbers: a literal without fraction or exponent that fits in `Int` (64-bit) becomes
/// `.int`; any other number becomes `.double` (so integers beyond 64 bits lose precision
/// as they would in JavaScript, never fail). `true`/`false` are `.bool`, never numbers.
/// Objects keep their key order; a repeated key keeps its first position and last value,
/// as `JSON.parse` does. Lone `\u` surrogates become U+FFFD; invalid UTF-8 is an error that
/// names the byte and its offset (RFC 8259 §8.1: JSON text is UTF-8).
/// Nesting deeper than `maxDepth` is an error rather than a stack overflow.
public struct JSONReader {
    /// Deepest array/object nesting accepted; real inputs stay far below it, while a
    /// hostile `[[[[…` would otherwise exhaust the stack of a small thread.
    public static let maxDepth = 1_000

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// The keys' hashes of the objects being read, innermost object's last: a key is compared
    /// only with the keys before it in its object that hash the same. (Comparing it with every
    /// one of them was a third of reading a 290 KB iTunes lookup: 35 keys per record.)
    private var keyHashes: [UInt32] = []

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON value (white space around it allowed).
    /// - Throws: `JSONParseError` naming the first problem and its position.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes)
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            reader.index = offset
            throw reader.error("invalid UTF-8: \(UTF8Validation.describe(bytes, at: offset))", kind: .invalidUTF8)
        }
        reader.skipWhitespace()
        let value = try reader.readValue()
        reader.skipWhitespace()
        if reader.index < bytes.count { throw reader.error("unexpected \(reader.describeCurrent()) after the value") }
        return value
    }

    /// Parses JSON text given as a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    // MARK: - Values

    private mutating func readValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        default:
            throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func readObject() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        index += 1  // {
        var entries: [(key: String, value: JSONValue)] = []
        var positions: [String: Int]? = nil  // built only for objects big enough to need it
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject(entries))
        }
        // This object's key hashes are keyHashes[base...], one per entry (until `positions`).
        let base = keyHashes.count
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string key")
            }
            let (key, hash) = try readKey()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("unexpected \(describeCurrent()), expected ':'") }
            index += 1
            skipWhitespace()
            let value = try readValue()
            if entries.count >= 64 && positions == nil {
                var table: [String: Int] = [:]
                for (i, e) in entries.enumerated() where table[e.key] == nil { table[e.key] = i }
                positions = table
            }
            let existing: Int?
            if let positions {
                existing = positions[key]
            } else {
                existing = entries.indices.first { keyHashes[base + $0] == hash && entries[$0].key == key }
            }
            if let existing {
                entries[existing].value = value
            } else {
                positions?[key] = entries.count
                if positions == nil { keyHashes.append(hash) }
                entries.append((key, value))
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                keyHashes.removeSubrange(base...)
                return .object(JSONObject(entries))
            default: throw error("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    private mutating func readArray() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try readValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(items)
            default: throw error("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    private mutating func enterNesting() throws(JSONParseError) {
        depth += 1
        if depth > JSONReader.maxDepth {
            throw error("nesting deeper than \(JSONReader.maxDepth) levels", kind: .tooDeep)
        }
    }

    // MARK: - Strings

    /// An object key and its FNV-1a hash (of its UTF-8 bytes as written, or as decoded when it
    /// has escapes: equal keys hash the same either way only through the decoded form, which
    /// the escape-free bytes are).
    private mutating func readKey() throws(JSONParseError) -> (String, UInt32) {
        let start = index + 1
        let key = try readString()
        var hash: UInt32 = 2_166_136_261
        if index - 1 - start == key.utf8.count {
            // No escapes: the bytes between the quotes are the key.
            bytes.withUnsafeBufferPointer { bytes in
                for byte in UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]) {
                    hash = (hash ^ UInt32(byte)) &* 16_777_619
                }
            }
        } else {
            for byte in key.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        }
        return (key, hash)
    }

    private mutating func readString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes, the bytes are the string. Read through a buffer pointer: a
        // bounds-checked subscript per byte was a fifth of reading an upstream body.
        let (end, stop) = bytes.withUnsafeBufferPointer { bytes in
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return (end, byte) }
                end += 1
            }
            return (end, UInt8(0))
        }
        index = end
        if end < bytes.count && stop == UInt8(ascii: "\"") {
            // `parse` validated all of the text as UTF-8 (RFC 8259 §8.1) and a quote never
            // splits a sequence, so the bytes between two quotes are valid UTF-8 and need no
            // second check (`String(validating:)` was a tenth of reading an upstream body).
            let s = bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
            }
            index += 1
            return s
        }
        if end < bytes.count && stop < 0x20 { throw error("unescaped control character in string") }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let s = String(validating: buffer, as: UTF8.self) else {
                    throw error("invalid UTF-8 in string", kind: .invalidUTF8)
                }
                index += 1
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate pairs with a following \uDC00–\uDFFF; alone it is U+FFFD.
                        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        {
                            let save = index
                            index += 2
                            let low = try readHex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                index = save
                                scalar = 0xFFFD
                            }
                        } else {
                            scalar = 0xFFFD
                        }
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        scalar = 0xFFFD
                    }
                    buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                default:
                    index -= 1
                    throw error("invalid escape \\\(describeCurrent())")
                }
            default:
                if byte < 0x20 { throw error("unescaped control character in string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("invalid \\u escape, expected 4 hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: - Numbers

    /// `number = [ minus ] int [ frac ] [ exp ]` (RFC 8259 §6).
    private mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("invalid number, expected a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error("invalid number, leading zero") }
        } else {
            while let b = peek(), isDigit(b) { index += 1 }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let b = peek(), isDigit(b) else { throw error("invalid number, expected a digit after '.'") }
            while let b = peek(), isDigit(b) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let b = peek(), isDigit(b) else { throw error("invalid number, expected an exponent digit") }
            while let b = peek(), isDigit(b) { index += 1 }
        }
        if isInteger, let value = integerValue(start..<index) { return .int(value) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number '\(text)'") }
        return .double(value)
    }

    /// The integer in `range` (optional '-' then digits), or nil on Int overflow.
    private func integerValue(_ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value = 0
        while i < range.upperBound {
            let digit = Int(bytes[i] - UInt8(ascii: "0"))
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    // MARK: - Helpers

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        let matches =
            index + count <= bytes.count
            && word.withUTF8Buffer { expected in expected.indices.allSatisfy { bytes[index + $0] == expected[$0] } }
        guard matches else { throw error("unexpected \(describeCurrent()), expected a value") }
        index += count
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ message: String, kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        var line = 1
        var column = 1
        for b in bytes[..<min(index, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(message: message, offset: index, line: line, column: column, kind: kind)
    }
}
