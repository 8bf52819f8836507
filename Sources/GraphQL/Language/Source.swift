/// A GraphQL document's text, held as UTF-8 bytes because the lexer works on bytes.
///
/// Spec §2.1 "Source Text": a document is a sequence of Unicode scalar values. Byte
/// offsets index `utf8`; `location(of:)` turns an offset into the 1-based line and column
/// the spec's error format (§7.1.2) reports, counting `\r\n`, `\r` and `\n` as one line
/// terminator each and columns in Unicode scalar values.
public struct Source: Sendable {
    /// The document text, decoded on demand: only the bytes are kept, so a parsed document
    /// costs its source once, not twice.
    public var body: String { String(decoding: utf8, as: UTF8.self) }
    /// A name for error messages, e.g. a file path; `"GraphQL request"` by default.
    public let name: String
    /// `body` as UTF-8 bytes; every `Location` offset indexes this array.
    public let utf8: [UInt8]

    public init(_ body: String, name: String = "GraphQL request") {
        self.name = name
        self.utf8 = Array(body.utf8)
    }

    public init(bytes: [UInt8], name: String = "GraphQL request") {
        self.utf8 = bytes
        self.name = name
    }

    /// The 1-based line and column of the byte at `offset` (§2.1.7: CRLF is one terminator).
    public func location(of offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var i = 0
        let end = min(offset, utf8.count)
        while i < end {
            let byte = utf8[i]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte == 0x0D {
                if i + 1 < utf8.count && utf8[i + 1] == 0x0A { i += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return SourceLocation(line: line, column: column)
    }
}

/// A 1-based line and column, as in the `locations` entries of a GraphQL error (§7.1.2).
public struct SourceLocation: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// Where an AST node came from: byte offsets `start..<end` into its `Source.utf8`.
///
/// Stored as two 32-bit offsets: every AST node carries one, so this halves their cost in a
/// large document. `parse` refuses sources of 2 GiB or more, where offsets would not fit.
public struct Location: Hashable, Sendable {
    private var storedStart: Int32
    private var storedEnd: Int32

    /// Byte offset of the node's first byte; -1 for nodes built in code.
    public var start: Int {
        get { Int(storedStart) }
        set { storedStart = Int32(truncatingIfNeeded: newValue) }
    }
    /// Byte offset just past the node's last byte; -1 for nodes built in code.
    public var end: Int {
        get { Int(storedEnd) }
        set { storedEnd = Int32(truncatingIfNeeded: newValue) }
    }

    public init(start: Int, end: Int) {
        storedStart = Int32(truncatingIfNeeded: start)
        storedEnd = Int32(truncatingIfNeeded: end)
    }

    /// The largest source, in bytes, whose offsets a `Location` can hold.
    public static let maxSourceBytes = Int(Int32.max)

    /// For nodes built in code rather than parsed.
    public static let none = Location(start: -1, end: -1)
}
