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

    /// Why `value` cannot stand for a value of `type`; nil when it can (leaf values are left to
    /// the executor's serialization, which reports a wrong scalar with its path).
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
            default: return composite ? "a \(name) needs an object of field values" : nil
            }
        }
    }
}

/// A mock values file that does not fit the schema; the message names the entry.
public struct MockValuesError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
