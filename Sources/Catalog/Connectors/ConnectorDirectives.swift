import GraphQL

/// The connector directives' definitions, which come with the gateway: a schema that uses
/// `@upstream`, `@http` or `@from` without defining them gets these.
public enum ConnectorDirectives {
    public static let sdl = """

        "A name and a value (a template) of a query entry or a header."
        input KeyValue { name: String!, value: String! }

        "How a connector batches its parents: `param` carries up to `max` parents' values, joined by `join` (repeated when empty); `key` is the member of each answered entry that names its parent."
        input Batch { param: String!, join: String = ",", max: Int!, key: String! }

        "An upstream API: where it is, what every call carries, its price per call and its daily quota."
        directive @upstream(name: String!, baseURL: String!, query: [KeyValue!], headers: [KeyValue!], unitsPerCall: Int = 1, dailyUnits: Int, timeoutMs: Int, maxAgeSeconds: Int) repeatable on SCHEMA

        "On a field: the field is the answer of a GET to an upstream, at `select` in its body (or made by the named `transform`). On one of the gateway's own types: how `node` reads one by `{$args.id}`. `pageSize` bounds the field's slicing argument and cuts the list to it."
        directive @http(upstream: String!, path: String!, query: [KeyValue!], select: String, batch: Batch, nullOn404: Boolean = false, transform: String, pageSize: Int) on FIELD_DEFINITION | OBJECT

        "The field reads this JSON member or dotted path of its parent."
        directive @from(path: String!) on FIELD_DEFINITION

        """

    /// The schema clients see: `schema` without the connector directives' definitions and the
    /// input types only they use (`KeyValue`, `Batch`). They configure the gateway; like
    /// Apollo's connector directives, they are not part of the API, and introspection does
    /// not show them.
    static func apiSchema(_ schema: Schema) -> Schema {
        let names: Set<String> = ["upstream", "http", "from"]
        guard schema.directives.contains(where: { names.contains($0.name) }) else { return schema }
        let directives = schema.directives.filter { !names.contains($0.name) }
        // An input type stays when one of the schema's own fields or input fields uses it.
        var used: Set<String> = []
        for type in schema.types.values {
            switch type {
            case .object(let object):
                for field in object.fields { for argument in field.arguments { used.insert(argument.type.namedType) } }
            case .interface(let interface):
                for field in interface.fields {
                    for argument in field.arguments { used.insert(argument.type.namedType) }
                }
            case .inputObject(let input) where !["KeyValue", "Batch"].contains(input.name):
                for field in input.fields { used.insert(field.type.namedType) }
            default: break
            }
        }
        for directive in directives {
            for argument in directive.arguments { used.insert(argument.type.namedType) }
        }
        let removed = Set(
            ["KeyValue", "Batch"].filter { name in
                guard case .inputObject? = schema.types[name] else { return false }
                return !used.contains(name)
            })
        // Built again from its own types, so that the built-in scalars take the places in the
        // type order that the remaining types give them (as graphql-js orders its type map).
        let own = schema.typeNames.filter { name in
            !name.hasPrefix("__") && !ScalarType.specifiedNames.contains(name) && !removed.contains(name)
        }
        return Schema(
            description: schema.description, queryType: schema.queryType, mutationType: schema.mutationType,
            subscriptionType: schema.subscriptionType, types: own.compactMap { schema.types[$0] },
            directives: directives, schemaDirectives: schema.schemaDirectives)
    }

    /// `bytes` with the definitions added when it uses a connector directive it does not define.
    public static func adding(to bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let uses = ["@upstream(", "@http(", "@from("].contains { text.contains($0) }
        guard uses, !text.contains("directive @upstream"), !text.contains("directive @http") else { return bytes }
        return bytes + Array(sdl.utf8)
    }
}
