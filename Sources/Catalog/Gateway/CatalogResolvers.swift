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
}
