#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONValue {
    /// True when both values would be written as the same JSON text: strings compared by their
    /// exact UTF-8 bytes and numbers by bit pattern. `==` compares strings as Swift does, by
    /// canonical equivalence (`"e\u{301}" == "é"`), which is right for lookups by meaning but
    /// wrong for caches whose answers echo the very bytes the client sent.
    public func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.object(let a), .object(let b)): a.isIdentical(to: b)
        default: false
        }
    }
}

extension JSONObject {
    /// `JSONValue.isIdentical(to:)` for objects: the same keys (exact bytes) in the same order
    /// with identical values.
    public func isIdentical(to other: JSONObject) -> Bool {
        entries.count == other.entries.count
            && zip(entries, other.entries).allSatisfy {
                $0.key.utf8.elementsEqual($1.key.utf8) && $0.value.isIdentical(to: $1.value)
            }
    }
}

/// A string as a dictionary key by its exact UTF-8 bytes. `String` keys compare by canonical
/// equivalence, so two texts that differ only in Unicode normalization (NFC `é`, NFD `e` +
/// U+0301) would share an entry, and a cache would answer one with the other's bytes.
public struct ExactStringKey: Hashable, Sendable {
    public let utf8: [UInt8]

    public init(_ text: String) {
        utf8 = Array(text.utf8)
    }

    public init(utf8: [UInt8]) {
        self.utf8 = utf8
    }

    // By hand: the synthesized conformance hashes element by element, which cost more than the
    // rest of a cache lookup for keys of a few hundred bytes.
    public func hash(into hasher: inout Hasher) {
        utf8.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (a: ExactStringKey, b: ExactStringKey) -> Bool {
        // memcmp: `elementsEqual` compared byte by byte, a sixth of a result-cache hit's lookup.
        a.utf8.count == b.utf8.count
            && a.utf8.withUnsafeBytes { x in
                b.utf8.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
    }
}
