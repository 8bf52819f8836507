/// A value flowing through execution: a resolver's result, and the source value handed to
/// the resolvers of the fields below it.
///
/// - `.json` holds plain data: leaves (`.int`, `.string`, …), `.null`, JSON lists, and JSON
///   objects that the default property resolver reads keys from (the `exec` CLI and static
///   fixtures use nothing else).
/// - `.host(x)` holds an application value (a domain struct, a loader key, …) that the
///   application's own resolvers understand (read it back with `hostValue`); the default
///   resolver reads it only when it conforms to `PropertyReadable`. An object (`HostObject`)
///   is held as it is (`.object`), any other value in a box (`.hostBox`).
/// - `.list` is a list of such values, for list fields whose items are not plain JSON.
/// - `.pending` is a value that becomes known later (graphql-js: a Promise, say as a list item
///   that resolves on its own): the executor awaits it where it completes the value, while the
///   rest of the response goes on. Only `execute` (async) accepts it.
///
/// Application values travel boxed (`HostBox`) so that copying a `FieldValue` — done for
/// every field — is a plain retain rather than an existential copy; an object is already a
/// reference, so it needs no box (a box was an allocation per object of every list).
public enum FieldValue: Sendable {
    case json(JSONValue)
    case hostBox(HostBox)
    case object(any HostObject)
    case list([FieldValue])
    case pending(PendingValue)

    public static let null = FieldValue.json(.null)

    /// An application value. (Generic, like the `PropertyReadable` overload, so that the
    /// more constrained one is chosen for a readable value: a non-generic `any Sendable`
    /// parameter would win over it.)
    public static func host<Value: Sendable>(_ value: Value) -> FieldValue { .hostBox(HostBox(value)) }

    /// An application value the default property resolver reads from, its conformance taken
    /// here once rather than looked up at run time for every field read (a hash lookup per
    /// `as? PropertyReadable`, ~2% of a 50-object query's CPU).
    public static func host<Value: PropertyReadable>(_ value: Value) -> FieldValue {
        .hostBox(HostBox(readable: value))
    }

    /// An application object, held without a box (the most constrained overload: chosen for
    /// any `HostObject`).
    public static func host<Value: HostObject>(_ value: Value) -> FieldValue { .object(value) }

    /// The application value of `.host(_:)`, nil for JSON and lists.
    public var hostValue: (any Sendable)? {
        switch self {
        case .hostBox(let box): return box.value
        case .object(let object): return object
        default: return nil
        }
    }

    public var isNull: Bool {
        if case .json(.null) = self { return true }
        return false
    }
}

/// The work behind `FieldValue.pending`: it returns the value, or throws a field error at the
/// value's position.
public final class PendingValue: Sendable {
    let work: @Sendable () async throws -> FieldValue
    public init(_ work: @escaping @Sendable () async throws -> FieldValue) { self.work = work }
}

/// The box around an application value in `FieldValue.host(_:)`.
public final class HostBox: Sendable {
    public let value: any Sendable
    /// `value` as `PropertyReadable` when the box was made knowing it is one; nil: ask `value`.
    let readable: (any PropertyReadable)?

    public init(_ value: any Sendable) {
        self.value = value
        readable = nil
    }

    public init(readable value: some PropertyReadable) {
        self.value = value
        readable = value
    }

    /// `value` as `PropertyReadable`, nil when it is not one.
    var propertyReadable: (any PropertyReadable)? { readable ?? (value as? PropertyReadable) }
}

/// An application value that the default property resolver can read fields from
/// (graphql-js's default resolver reads `source[fieldName]`).
public protocol PropertyReadable: Sendable {
    /// The value of the field named `name`; `.null` when there is none.
    func property(_ name: String) -> FieldValue
}

/// An application object (a class instance) the default property resolver reads from:
/// `FieldValue.host(_:)` holds it as it is, where any other value needs a `HostBox`.
public protocol HostObject: AnyObject, PropertyReadable {}

/// An application value that names its own object type when it appears where an interface
/// or union is expected (the `__typename` key plays this role for JSON objects).
public protocol TypeNameProviding: Sendable {
    var typeName: String { get }
}
