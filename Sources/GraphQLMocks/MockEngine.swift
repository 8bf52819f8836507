import GraphQL

/// Answers any valid query from the schema alone (graphql-tools `addMocksToSchema`, as the
/// `--mock` of `musicgraph exec`, `query` and `serve`): every field gets a deterministic
/// value drawn from the run's seed and the path of field names and arguments that leads to
/// it, so the same seed gives the same bytes on every machine, and a field's value does not
/// depend on what else the query selects.
///
/// A field's value comes from the first of:
/// 1. the parent's pinned values (an override object; a single object fetched by arguments
///    named like its leaf fields has those fields equal to the arguments: `album(id: X)`
///    answers an album whose `id` is X, `artist(name: "AC/DC")` one named AC/DC);
/// 2. `MockValues`, by `Type.field` (or `Interface.field`);
/// 3. the `MockProfile` (domain knowledge: id formats, consistent enums);
/// 4. the generic rules: leaves by `MockLeafValues`; lists as long as their slicing
///    argument (`@listSize(slicingArguments:)`, else `first`), else `@listSize(assumedSize:)`,
///    else 2, never past the argument's documented maximum or 1000; abstract types as one of
///    their possible types, chosen by seed (or by the profile, or by `__typename` in an
///    override object).
///
/// Before that, `Int` arguments are checked against the range their description documents
/// ("(1–50)"): a value outside it is a `BAD_USER_INPUT` field error, as the gateway's
/// resolvers give.
public struct MockEngine: Sendable {
    public let schema: Schema
    public let seed: UInt64
    public let values: MockValues
    public let profile: any MockProfile

    /// The longest mocked list, whatever its arguments ask for.
    public static let maxListLength = 1_000
    /// The length of a list with no slicing argument and no `@listSize`.
    public static let defaultListLength = 2

    public init(schema: Schema, seed: UInt64 = 0, values: MockValues = MockValues(), profile: any MockProfile) {
        self.schema = schema
        self.seed = seed
        self.values = values
        self.profile = profile
    }

    /// The root object of an operation whose root type is `typeName`.
    public func root(_ typeName: String) -> MockObject {
        MockObject(typeName: typeName, seed: MockSeed.mix(seed, typeName))
    }

    /// The value of `definition` on `source` (a `MockObject`, or anything else as the root).
    /// - Throws: the profile's and the argument checks' errors (field errors).
    func resolve(definition: FieldDefinitionModel, on parentType: String, source: FieldValue, arguments: JSONObject)
        throws -> FieldValue
    {
        let object: MockObject
        if case .hostBox(let box) = source, let mock = box.value as? MockObject {
            object = mock
        } else {
            object = root(parentType)
        }
        try checkArguments(definition, on: parentType, arguments)
        let argumentsText = arguments.count == 0 ? "" : JSONWriter.string(.object(arguments))
        let field = MockField(
            parentType: parentType, definition: definition, arguments: arguments, object: object,
            seed: MockSeed.mix(MockSeed.mix(object.seed, definition.name), argumentsText))
        try profile.check(field)
        let given =
            try object.pinned[definition.name] ?? values.entry(definition.name, on: parentType, schema: schema)
            ?? profile.value(for: field, engine: self)
        return try build(definition.type, given: given, field: field, seed: field.seed, index: nil)
    }

    /// What field `name` (taking no arguments) of `object` resolves to, when it is a leaf;
    /// for profiles that derive one value from another (a Rakuten artist's id is its name).
    public func leafValue(_ name: String, of object: MockObject) -> JSONValue? {
        guard let definition = schema.fieldDefinition(name, on: object.typeName),
            let named = schema.types[definition.type.namedType], !named.isCompositeType,
            case .json(let value)? = try? resolve(
                definition: definition, on: object.typeName, source: .host(object), arguments: JSONObject())
        else { return nil }
        return value
    }

    private func build(_ type: TypeReference, given: JSONValue?, field: MockField, seed: UInt64, index: Int?) throws
        -> FieldValue
    {
        if case .null? = given { return .null }
        switch type {
        case .nonNull(let inner):
            return try build(inner, given: given, field: field, seed: seed, index: index)
        case .list(let item):
            if case .array(let items)? = given {
                return .list(
                    try items.enumerated().map {
                        try build(
                            item, given: $0.element, field: field, seed: MockSeed.mix(seed, UInt64($0.offset)),
                            index: $0.offset)
                    })
            }
            // One override value (an object) stands for every item.
            return .list(
                try (0..<listLength(field)).map {
                    try build(item, given: given, field: field, seed: MockSeed.mix(seed, UInt64($0)), index: $0)
                })
        case .named(let name):
            guard let named = schema.types[name] else { return .null }
            switch named {
            case .scalar, .enumType:
                return .json(given ?? MockLeafValues.value(of: named, field: field, seed: seed))
            case .object, .interface, .union:
                var pinned = JSONObject()
                if case .object(let object)? = given { pinned = object }
                var typeName = name
                if named.isAbstractType {
                    if case .string(let chosen)? = pinned["__typename"] {
                        typeName = chosen
                    } else if let chosen = try profile.concreteType(of: name, for: field, engine: self) {
                        typeName = chosen
                    } else {
                        let possible = schema.possibleTypes(of: name).sorted()
                        guard !possible.isEmpty else { return .null }
                        typeName = possible[MockSeed.pick(MockSeed.mix(seed, "type"), in: 0...(possible.count - 1))]
                    }
                }
                if index == nil { echoArguments(field, into: &pinned, on: typeName) }
                var child = MockObject(
                    typeName: typeName, seed: MockSeed.mix(seed, typeName), index: index, pinned: pinned,
                    facts: field.object.facts)
                child.facts.merge(profile.facts(for: child, of: field, engine: self)) { _, new in new }
                return .host(child)
            case .inputObject:
                return .null
            }
        }
    }

    /// Arguments named like a leaf field of the fetched object's type fix that field.
    private func echoArguments(_ field: MockField, into pinned: inout JSONObject, on typeName: String) {
        for (name, value) in field.arguments.entries where pinned[name] == nil {
            if case .null = value { continue }
            guard let child = schema.fieldDefinition(name, on: typeName), child.arguments.isEmpty,
                let named = schema.types[child.type.namedType], !named.isCompositeType
            else { continue }
            pinned[name] = value
        }
    }

    /// How many items a mocked list of `field` has.
    func listLength(_ field: MockField) -> Int {
        var length = Self.defaultListLength
        var cap = Self.maxListLength
        let listSize = field.definition.directives.first { $0.name.value == "listSize" }
        var slicing = ["first"]
        if let listSize {
            for argument in listSize.arguments {
                switch (argument.name.value, argument.value) {
                case ("assumedSize", .int(let n)): length = Int(n.value) ?? length
                case ("slicingArguments", .list(let names)):
                    slicing = names.values.compactMap {
                        if case .string(let s) = $0 { return s.value }
                        return nil
                    }
                default: break
                }
            }
        }
        for name in slicing {
            guard case .int(let n)? = field.arguments[name] else { continue }
            length = n
            if let documented = documentedRange(field.definition.argument(name)?.description) {
                cap = min(cap, Int(documented.upperBound))
            }
            break
        }
        return max(0, min(length, cap))
    }

    /// `Int` arguments outside the range their description documents are refused.
    private func checkArguments(_ definition: FieldDefinitionModel, on parentType: String, _ arguments: JSONObject)
        throws
    {
        for argument in definition.arguments where argument.type.namedType == "Int" {
            guard case .int(let value)? = arguments[argument.name], let range = documentedRange(argument.description),
                !range.contains(Double(value))
            else { continue }
            throw GraphQLError(
                "\(argument.name) must be between \(Int(range.lowerBound)) and \(Int(range.upperBound)); got \(value).",
                extensions: JSONObject([("code", .string("BAD_USER_INPUT"))]))
        }
    }
}

/// `MockEngine` as the executor's resolvers: every field of every object type (introspection
/// aside) resolves through the engine, synchronously.
public struct MockResolvers: ExecutionResolvers {
    public let engine: MockEngine

    public init(engine: MockEngine) { self.engine = engine }

    public func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        guard !typeName.hasPrefix("__") else { return nil }
        return MockFieldResolver(engine: engine, definition: field, parentType: typeName)
    }
}

private struct MockFieldResolver: FieldResolver {
    let engine: MockEngine
    let definition: FieldDefinitionModel
    let parentType: String

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        .value(try engine.resolve(definition: definition, on: parentType, source: source, arguments: arguments))
    }
}
