import GraphQL

/// Values a test pins, keyed by schema coordinate `Type.field` (graphql-tools' per-type
/// mocks, as data): `{"Artist.name": "AC/DC", "Album.tracks": [{"title": "Hells Bells"}]}`.
///
/// - A leaf field's entry is its value (a list for list fields), used as given.
/// - An object field's entry is an object whose keys fix fields of the child (the other
///   fields stay mocked), `null`, or for a list field an array of such objects (the list
///   then has that length) or one object applied to every item of the mocked length.
/// - `Interface.field` applies to every implementation that has no `Type.field` entry of
///   its own; a `__typename` key in an override object picks the concrete type of an
///   abstract one.
public struct MockValues: Sendable {
    /// Entries by coordinate.
    public let entries: [String: JSONValue]

    public init() { entries = [:] }

    /// The entries of a JSON object, checked against `schema`.
    /// - Throws: `MockValuesError` naming the first entry whose coordinate is not a field of
    ///   the schema, or whose value cannot be one of that field (an object for a leaf, a
    ///   number for an object).
    public init(json: JSONValue, schema: Schema) throws(MockValuesError) {
        guard case .object(let object) = json else {
            throw MockValuesError("mock values must be a JSON object keyed by Type.field")
        }
        var entries: [String: JSONValue] = [:]
        for (key, value) in object.entries {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let type = schema.types[String(parts[0])] else {
                throw MockValuesError("'\(key)' is not a Type.field coordinate of the schema")
            }
            let definition: FieldDefinitionModel?
            switch type {
            case .object(let t): definition = t.field(String(parts[1]))
            case .interface(let t): definition = t.field(String(parts[1]))
            default: definition = nil
            }
            guard let definition else {
                throw MockValuesError("'\(key)': \(parts[0]) has no field \(parts[1])")
            }
            if let problem = Self.shapeProblem(value, for: definition.type, schema: schema) {
                throw MockValuesError("'\(key)' (\(definition.type)): \(problem)")
            }
            entries[key] = value
        }
        self.entries = entries
    }

    /// The entry for `field` of `typeName`: its own, else one of an interface it implements.
    func entry(_ field: String, on typeName: String, schema: Schema) -> JSONValue? {
        if let own = entries["\(typeName).\(field)"] { return own }
        guard !entries.isEmpty, case .object(let object)? = schema.types[typeName] else { return nil }
        for interface in object.interfaces {
            if let inherited = entries["\(interface).\(field)"] { return inherited }
        }
        return nil
    }

    /// Why `value` cannot stand for a value of `type`; nil when it can. Leaves are held to the
    /// JSON their type's result coercion produces (§3.5: Int a 32-bit integer, Float a number,
    /// String a string, Boolean a boolean, ID a string or integer; §3.9 an enum one of its
    /// values), so a pinned value is what the answer shows; custom scalars take any JSON.
    private static func shapeProblem(_ value: JSONValue, for type: TypeReference, schema: Schema) -> String? {
        if case .null = value { return nil }
        switch type {
        case .nonNull(let inner): return shapeProblem(value, for: inner, schema: schema)
        case .list(let item):
            if case .array(let items) = value {
                return items.lazy.compactMap { shapeProblem($0, for: item, schema: schema) }.first
            }
            return shapeProblem(value, for: item, schema: schema)
        case .named(let name):
            let composite = schema.types[name]?.isCompositeType ?? false
            switch value {
            case .object: return composite ? nil : "an object cannot be a \(name) value"
            case .array: return "a list cannot be a single \(name) value"
            default: return composite ? "a \(name) needs an object of field values" : leafProblem(value, name, schema)
            }
        }
    }

    private static func leafProblem(_ value: JSONValue, _ name: String, _ schema: Schema) -> String? {
        let fits: Bool
        switch (name, value) {
        case ("Int", .int(let n)): fits = Int32(exactly: n) != nil
        case ("Float", .int), ("Float", .double), ("String", .string), ("Boolean", .bool), ("ID", .string),
            ("ID", .int):
            fits = true
        case ("Int", _), ("Float", _), ("String", _), ("Boolean", _), ("ID", _): fits = false
        default:
            guard case .enumType(let type)? = schema.types[name] else { return nil }
            guard case .string(let text) = value else { return "\(name) values are strings (its enum values)" }
            return type.values.contains { $0.name == text } ? nil : "'\(text)' is not a value of the enum \(name)"
        }
        let article = "AEIOU".contains(name.first ?? "x") ? "an" : "a"
        return fits ? nil : "\(value.kindDescription) cannot be \(article) \(name) value"
    }
}

/// A mock values file that does not fit the schema; the message names the entry.
public struct MockValuesError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension JSONValue {
    /// What a refused leaf value is, for the message: `the string "long"`, `the number 1.5`.
    fileprivate var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): "the boolean \(b)"
        case .int(let n): "the number \(n)"
        case .double(let d): "the number \(d)"
        case .string(let text): "the string \"\(text)\""
        case .array: "a list"
        case .object: "an object"
        }
    }
}
