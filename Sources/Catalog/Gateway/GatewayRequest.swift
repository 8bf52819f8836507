import DataLoader
import GraphQL

/// The per-request context every gateway resolver reads (`ResolveInfo.context`): the
/// request's loaders over its counting, caching providers.
final class GatewayRequest: Sendable {
    let loaders: RequestLoaders
    /// The loaders of the schema's connector fields; nil when it declares none.
    let connectors: ConnectorLoaders?

    init(loaders: RequestLoaders, connectors: ConnectorLoaders? = nil) {
        self.loaders = loaders
        self.connectors = connectors
    }
}

extension BatchScheduler: ExecutionActivity {}

/// What a resolver of the gateway knows of the field it resolves: its request's loaders, and its
/// response path (for the loaders to note where a stale answer was served).
struct GatewayField: Sendable {
    let request: GatewayRequest
    let path: [PathComponent]

    var loaders: RequestLoaders { request.loaders }
}

/// A resolver bound to a schema field: `body` gets the source value, the coerced arguments
/// and the request's context, and answers now (`.value`), through one of the request's loaders
/// with the level's other fields of that loader (`FieldLoader.field`, `.load`), or later (`.later`).
struct GatewayFieldResolver: FieldResolver {
    let body: @Sendable (FieldValue, JSONObject, GatewayField) throws -> Resolution

    init(_ body: @escaping @Sendable (FieldValue, JSONObject, GatewayField) throws -> Resolution) {
        self.body = body
    }

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        guard let request = info.context as? GatewayRequest else {
            throw GraphQLError("Internal error: \(info.parentType).\(info.fieldName) ran outside a gateway request.")
        }
        // The coordinate is spelled out only for the error: built for every resolved field, it
        // was a string interpolation per album of an `albums { artist }` level.
        try Self.checkArgumentLengths(arguments, field: "\(info.parentType).\(info.fieldName)")
        return try body(source, arguments, GatewayField(request: request, path: info.path))
    }

    /// The most UTF-8 bytes a string argument may have. Every one of them ends up in an
    /// upstream URL (a search term, an id); the longest real ones are a few hundred bytes,
    /// and a 900 KB `artist(name:)` would otherwise be sent as a 900 KB URL.
    static let maxArgumentBytes = 1_024

    /// Refuses, before any upstream call, a string argument (or a string in a list argument)
    /// over `maxArgumentBytes`: a `BAD_USER_INPUT` field error with `argument`, `maximum`, `actual`.
    static func checkArgumentLengths(_ arguments: JSONObject, field: @autoclosure () -> String) throws(GraphQLError) {
        for (name, value) in arguments.entries {
            let longest: Int
            switch value {
            case .string(let text): longest = text.utf8.count
            case .array(let items):
                longest = items.reduce(0) { if case .string(let text) = $1 { max($0, text.utf8.count) } else { $0 } }
            default: continue
            }
            guard longest > maxArgumentBytes else { continue }
            var error = badInput(
                "The argument `\(name)` of \(field()) is \(longest) bytes long, over the limit of \(maxArgumentBytes) bytes."
            )
            error.extensions["argument"] = .string(name)
            error.extensions["maximum"] = .int(maxArgumentBytes)
            error.extensions["actual"] = .int(longest)
            throw error
        }
    }
}

/// A request error in an argument (a malformed id, a missing name): `BAD_USER_INPUT`.
func badInput(_ message: String) -> GraphQLError {
    GraphQLError(message, extensions: JSONObject([("code", .string("BAD_USER_INPUT"))]))
}

/// A read the upstreams cannot serve (TMDB videos by key: no such endpoint): `UNSUPPORTED`.
func unsupported(_ message: String) -> GraphQLError {
    GraphQLError(message, extensions: JSONObject([("code", .string("UNSUPPORTED"))]))
}

extension JSONObject {
    func string(_ name: String) -> String? {
        if case .string(let text)? = self[name] { return text }
        return nil
    }

    func int(_ name: String) -> Int? {
        if case .int(let n)? = self[name] { return n }
        return nil
    }
}

extension FieldValue {
    /// The node of the expected type; a GraphQLError when the value is something else.
    /// (A class cast of the object itself: a cast out of `hostValue`'s `any Sendable` was a
    /// runtime search of the existential's type, per resolved field.)
    func node<T: HostObject>(_ type: T.Type) throws -> T {
        guard case .object(let object) = self, let node = object as? T else {
            throw GraphQLError("Internal error: the source value is not of type \(T.self).")
        }
        return node
    }

    static func hosts<T: HostObject>(_ values: some Sequence<T>) -> FieldValue {
        .list(values.map { .object($0) })
    }
}

/// `items`, cut to `first` when given (negative counts as 0).
func prefix<T>(_ items: [T], _ first: Int?) -> [T] {
    guard let first else { return items }
    return Array(items.prefix(max(0, first)))
}
