import GraphQL

/// The gateway's resolvers with the schema's declarations over them: an `@http` field reads
/// through its connector's loader, an `@from` field reads its JSON path, and every other field
/// is the base resolvers' (a field of a declared type without `@from` is its JSON member of
/// the same name, the default property resolver).
struct ConnectorResolvers: ExecutionResolvers {
    let base: any ExecutionResolvers
    let connectors: ConnectorSchema

    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        let coordinate = "\(typeName).\(field.name)"
        if let connector = connectors.connectors[coordinate] {
            return HTTPFieldResolver(connector: connector, environment: connectors.environment)
        }
        if let path = connectors.fromPaths[coordinate] {
            return SyncResolver { source, _, _ in
                guard case .json(let json) = source else { return .null }
                return .json(path.value(in: json) ?? .null)
            }
        }
        return base.resolver(for: field, on: typeName)
    }

    func resolveType(of value: FieldValue, abstractType: String, info: ResolveInfo) throws -> String? {
        try base.resolveType(of: value, abstractType: abstractType, info: info)
    }
}

/// An `@http` field: its call for this parent and arguments, loaded with the level's others.
private struct HTTPFieldResolver: FieldResolver {
    let connector: HTTPConnector
    let environment: [String: String]

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        guard let request = info.context as? GatewayRequest, let loaders = request.connectors else {
            throw GraphQLError("Internal error: \(connector.coordinate) ran outside a gateway request.")
        }
        try GatewayFieldResolver.checkArgumentLengths(arguments, field: connector.coordinate)
        let first = try connector.slicing.flatMap { slicing in
            try optionalPageSize(arguments, argument: slicing.argument, range: slicing.range) ?? slicing.defaultValue
        }
        let values = TemplateValues(arguments: arguments, parent: source, environment: environment)
        guard let call = connector.call(values) else { return .value(.null) }
        return loaders.loader(for: connector).field(call, at: info.path) { value in
            guard let first else { return value }
            return value.prefix(first)
        }
    }
}

extension FieldValue {
    /// A list cut to its first `count` entries; any other value as it is.
    func prefix(_ count: Int) -> FieldValue {
        switch self {
        case .list(let items): .list(Array(items.prefix(count)))
        case .json(.array(let items)): .json(.array(Array(items.prefix(count))))
        default: self
        }
    }
}
