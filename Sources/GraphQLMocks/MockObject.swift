import GraphQL

/// An object of the mocked response as it flows through execution (a `FieldValue.host`):
/// which object type it is, the seed its field values are drawn from, and what is fixed for
/// it. Its fields are computed when selected, from these alone, so the same query gives the
/// same bytes on every run and a field's value does not depend on what else is selected.
public struct MockObject: Sendable, TypeNameProviding {
    /// The object type (concrete, also where an interface or union was expected).
    public let typeName: String
    /// Drawn from the run's seed, the path of field names and arguments that led here, and
    /// the list index.
    public let seed: UInt64
    /// Position in the list this object came from; nil when the field is not a list.
    public let index: Int?
    /// Field values fixed for this object by name: an override object from the mock values,
    /// or arguments of the field that fetched it (`album(id: X)` has `id` X).
    public var pinned: JSONObject
    /// What children inherit from the objects above them (set by a `MockProfile`: which
    /// upstream issued an id, an album's artist name, …).
    public var facts: [String: String]

    public init(
        typeName: String, seed: UInt64, index: Int? = nil, pinned: JSONObject = JSONObject(),
        facts: [String: String] = [:]
    ) {
        self.typeName = typeName
        self.seed = seed
        self.index = index
        self.pinned = pinned
        self.facts = facts
    }
}

/// One field being mocked: where it is, its definition and coerced arguments, and the
/// seed of its value.
public struct MockField: Sendable {
    /// The object type the field is selected on.
    public let parentType: String
    public let definition: FieldDefinitionModel
    /// Coerced argument values (defaults included), spec §6.4.1.
    public let arguments: JSONObject
    /// The object the field is selected on.
    public let object: MockObject
    /// The seed of this field's value (list items mix in their index).
    public let seed: UInt64

    public var name: String { definition.name }
    /// `Type.field`, the key of `MockValues`.
    public var coordinate: String { "\(parentType).\(definition.name)" }
}

/// Domain knowledge that makes mocks look like a particular API: ids in its format, enum
/// values consistent with them, abstract types chosen from arguments, argument checks its
/// resolvers make. Every hook has a default that leaves the field to the generic rules.
public protocol MockProfile: Sendable {
    /// Refuses arguments the real resolvers refuse (thrown errors become field errors).
    func check(_ field: MockField) throws

    /// The value of `field`, or nil for the generic rules. A JSON object or array for an
    /// object-typed field fixes the child's fields, as `MockValues` entries do.
    func value(for field: MockField, engine: MockEngine) throws -> JSONValue?

    /// Facts `child` (an object value of `field`) adds to those it inherits.
    func facts(for child: MockObject, of field: MockField, engine: MockEngine) -> [String: String]

    /// The object type of a value of `abstractType` returned by `field`; nil to pick one of
    /// the possible types by seed.
    func concreteType(of abstractType: String, for field: MockField, engine: MockEngine) throws -> String?
}

extension MockProfile {
    public func check(_ field: MockField) throws {}
    public func value(for field: MockField, engine: MockEngine) throws -> JSONValue? { nil }
    public func facts(for child: MockObject, of field: MockField, engine: MockEngine) -> [String: String] { [:] }
    public func concreteType(of abstractType: String, for field: MockField, engine: MockEngine) throws -> String? {
        nil
    }
}

/// The profile that knows nothing: generic rules everywhere.
public struct GenericMockProfile: MockProfile {
    public init() {}
}
