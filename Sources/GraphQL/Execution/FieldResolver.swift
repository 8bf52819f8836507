/// What a resolver produced for one field (spec §6.4.2 ResolveFieldValue): either the
/// value now, work to await, or a key to load with other fields' keys. Returning `.value`
/// keeps execution on the synchronous path (no task, no suspension); `.later` runs
/// concurrently with the other async fields of the same selection set (a task each);
/// `.batched` (built by `load(_:from:)`) is loaded in one call per loader with every other
/// field of the level that names the same loader (one task per such batch; see
/// FieldBatchLoader.swift).
public enum Resolution: Sendable {
    case value(FieldValue)
    case later(@Sendable () async throws -> FieldValue)
    case batched(BatchedLoad)

    /// The value `loader` answers for `key`, asked for together with the keys of the other
    /// pending fields of this level that name the same loader object.
    public static func load<Loader: FieldBatchLoader>(_ key: Loader.Key, from loader: Loader) -> Resolution {
        .batched(BatchedLoad(key, from: loader))
    }
}

/// Resolves one field of an object type: spec §6.4.2 ResolveFieldValue(objectType,
/// objectValue, fieldName, argumentValues).
///
/// `arguments` are the coerced argument values (spec §6.4.1 CoerceArgumentValues): a JSON
/// object with an entry per argument that was given or has a default, enums as their
/// names, input objects as JSON objects in definition order.
/// - Throws: any error; it becomes a field error at this field's path (spec §6.4.4). A
///   `GraphQLError` keeps its message and extensions; `GraphQLErrorConvertible` errors are
///   converted; anything else shows `String(describing:)`.
public protocol FieldResolver: Sendable {
    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution
}

/// An error that knows its GraphQL form (message and `extensions`, e.g. `code`, `service`);
/// the executor adds locations and path.
public protocol GraphQLErrorConvertible: Error {
    var graphQLError: GraphQLError { get }
}

/// A resolver from a synchronous closure.
public struct SyncResolver: FieldResolver {
    let body: @Sendable (FieldValue, JSONObject, ResolveInfo) throws -> FieldValue
    public init(_ body: @escaping @Sendable (FieldValue, JSONObject, ResolveInfo) throws -> FieldValue) {
        self.body = body
    }
    public func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        .value(try body(source, arguments, info))
    }
}

/// A resolver from an async closure; it always runs as concurrent work.
public struct AsyncResolver: FieldResolver {
    let body: @Sendable (FieldValue, JSONObject, ResolveInfo) async throws -> FieldValue
    public init(_ body: @escaping @Sendable (FieldValue, JSONObject, ResolveInfo) async throws -> FieldValue) {
        self.body = body
    }
    public func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        let body = self.body
        return .later { try await body(source, arguments, info) }
    }
}

/// The resolvers of a schema: which resolver runs for which field, and how values in
/// interface or union positions find their object type.
public protocol ExecutionResolvers: Sendable {
    /// The resolver for field `field` of object type `typeName`, or nil for the default
    /// property resolver (JSON object key / `PropertyReadable`). Asked once per field and
    /// type per execution plan, not once per value; executions sharing an
    /// `ExecutionPlanCache` share the answer too, so it must not change between them.
    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)?

    /// The name of the object type of `value`, which sits where abstract type `abstractType`
    /// is expected (spec §6.4.3 ResolveAbstractType); nil when unknown. The default reads a
    /// JSON object's `__typename` string or a `TypeNameProviding` value.
    func resolveType(of value: FieldValue, abstractType: String, info: ResolveInfo) throws -> String?
}

extension ExecutionResolvers {
    public func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? { nil }

    public func resolveType(of value: FieldValue, abstractType: String, info: ResolveInfo) throws -> String? {
        defaultResolveType(of: value)
    }
}

/// graphql-js's `defaultTypeResolver` without `isTypeOf`: the `__typename` key of a JSON
/// object when it is a string, or the name a `TypeNameProviding` value gives.
public func defaultResolveType(of value: FieldValue) -> String? {
    switch value {
    case .json(.object(let object)):
        if case .string(let name)? = object["__typename"] { return name }
        return nil
    case .object(let object): return (object as? TypeNameProviding)?.typeName
    case .hostBox(let box): return (box.value as? TypeNameProviding)?.typeName
    default: return nil
    }
}

/// Default property resolvers everywhere: what `musicgraph exec` runs over static JSON.
public struct PropertyResolvers: ExecutionResolvers {
    public init() {}
}
