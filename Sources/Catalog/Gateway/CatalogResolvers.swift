import GraphQL

/// The gateway's `ExecutionResolvers`: the bound resolver of each schema field, by type and
/// field name; fields without one are read by the default property resolver from the host
/// values in `Nodes.swift`.
struct CatalogResolvers: ExecutionResolvers {
    static let bindings: [String: [String: any FieldResolver]] = [
        "Query": QueryResolvers.bindings, "Artist": ObjectResolvers.artist, "Album": ObjectResolvers.album,
        "Track": ObjectResolvers.track, "Movie": ObjectResolvers.movie,
    ]

    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        Self.bindings[typeName]?[field.name]
    }

    /// The fields of `schema`'s object types that neither have a bound resolver nor are served
    /// by their model's default property resolver, as `Type.field`, sorted. Empty means the
    /// gateway can serve every field.
    static func unboundFields(in schema: Schema) -> [String] {
        var missing: [String] = []
        for (name, type) in schema.types where !name.hasPrefix("__") {
            guard case .object(let object) = type else { continue }
            for field in object.fields
            where bindings[name]?[field.name] == nil && modelProperties[name]?.contains(field.name) != true {
                missing.append("\(name).\(field.name)")
            }
        }
        return missing.sorted()
    }
}
