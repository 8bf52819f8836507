/// HTTP header fields in wire order, with case-insensitive name lookup (RFC 9110 §5.1).
///
/// Names keep the spelling they were given; lookups compare names ASCII-case-insensitively.
/// Repeated fields stay separate entries (`values(for:)` returns them all in order).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Headers from `(name, value)` pairs, in the given order.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, repeated names counted separately.
    public var count: Int { fields.count }

    /// The value of the first field named `name` (any case), or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of fields named `name` (any case), in wire order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where Self.namesMatch(field.name, name) {
            values.append(field.value)
        }
        return values
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` (any case) with a single one.
    public mutating func replaceOrAdd(name: String, value: String) {
        if fields.contains(where: { Self.namesMatch($0.name, name) }) { removeAll(named: name) }
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (any case).
    public mutating func removeAll(named name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Header names are ASCII tokens, so comparing lowercased UTF-8 bytes is exact and cheap.
    /// Exact spelling first: clients nearly always send the canonical one (`Content-Type`).
    public static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && (lhs == rhs || lhs.utf8.elementsEqual(rhs.utf8) { asciiLower($0) == asciiLower($1) })
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }
}
