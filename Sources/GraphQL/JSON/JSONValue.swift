/// A JSON value as GraphQL sees it: input (variables, static root data) and error
/// extensions. Objects keep their key order, because GraphQL responses are ordered
/// (§7.1) and the differential tests compare `data` as ordered JSON.
///
/// Integers and floating-point numbers stay apart (`int` holds any JSON number written
/// without fraction or exponent that fits in 64 bits), and so do `0`/`false`, `1`/`true`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An ordered JSON object: `keys` in document order, lookups by key.
public struct JSONObject: Sendable, Equatable {
    public private(set) var entries: [(key: String, value: JSONValue)]

    public init(_ entries: [(key: String, value: JSONValue)] = []) {
        self.entries = entries
    }

    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }

    /// The value for `key`, or nil when absent. A linear scan: objects here are small and
    /// a scan beats hashing below a few dozen keys.
    public subscript(key: String) -> JSONValue? {
        get {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        set {
            if let i = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
