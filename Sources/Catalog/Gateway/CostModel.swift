import GraphQL

/// The cost model a schema declares with the IBM GraphQL Cost Directives, as Apollo Router,
/// Hive Gateway, Grafbase and Cosmo read them:
///
/// ```graphql
/// directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
/// directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!],
///   requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
/// ```
///
/// plus MusicGraph's `@costWhen(argument: String!, value: String!, weight: Int!)` (repeatable,
/// on fields): the weight of the field when an enum argument has that value (a cheaper upstream
/// answers it, as `Track.videos(source: ITUNES)`); a gateway that does not know it uses
/// `@cost`, an upper bound. Built once per schema; `QueryCost` walks operations with it.
public struct CostModel: Sendable {
    /// `@listSize` of one field.
    struct ListSize: Sendable, Equatable {
        var assumedSize: Int?
        var slicingArguments: [String]
        var sizedFields: [String]
        var requireOneSlicingArgument: Bool
    }

    /// What the directives say about one field (`Type.field`).
    struct FieldCost: Sendable, Equatable {
        /// `@cost(weight:)` of the field: quota units per upstream call it makes.
        var weight: Int?
        /// `@costWhen` entries, the first match wins.
        var weightWhen: [ConditionalWeight] = []
        var listSize: ListSize?
        /// `@cost(weight:)` of its arguments, added per field instance when given.
        var argumentWeights: [String: Int] = [:]
    }

    /// One `@costWhen(argument:, value:, weight:)`.
    struct ConditionalWeight: Sendable, Equatable {
        var argument: String
        var value: String
        var weight: Int
    }

    var fields: [String: FieldCost] = [:]
    /// `@cost` on object, scalar and enum types: the weight of each value of the type a field
    /// returns, for fields without a weight of their own.
    var typeWeights: [String: Int] = [:]
    /// `@cost` on input object fields (`Input.field`), added when the field is given.
    var inputFieldWeights: [String: Int] = [:]
    /// Parents per upstream call of the fields that batch their parents into one request: the
    /// built-in loaders' batch sizes (`QueryCost.parentsPerCall`) and each `@http(batch:)`'s `max`.
    var parentsPerCall: [String: Int] = QueryCost.parentsPerCall

    /// Reads the directives of `schema`, and prices its connector fields from their
    /// declarations: an `@http` field without `@cost` weighs its upstream's `unitsPerCall`,
    /// paid once per `batch.max` parents when it batches.
    /// - Throws: as `init(schema:)`.
    public init(schema: Schema, connectors: ConnectorSchema) throws(GatewayStartError) {
        try self.init(schema: schema)
        for (coordinate, connector) in connectors.connectors {
            if fields[coordinate, default: FieldCost()].weight == nil {
                fields[coordinate, default: FieldCost()].weight = connector.upstream.unitsPerCall
            }
            if let batch = connector.batch { parentsPerCall[coordinate] = batch.max }
        }
    }

    /// A model without weights: every operation costs 0.
    static let empty = CostModel()

    private init() {}

    /// Reads the directives of `schema`.
    /// - Throws: `GatewayStartError.invalidSchema` naming the coordinate of a negative weight or
    ///   list size, or of a slicing argument / sized field the field does not have.
    public init(schema: Schema) throws(GatewayStartError) {
        for (name, type) in schema.types {
            switch type {
            case .object(let object):
                if let weight = try Self.weight(object.directives, at: name) { typeWeights[name] = weight }
                for field in object.fields { try read(field, of: name, schema: schema) }
            case .interface(let interface):
                for field in interface.fields { try read(field, of: name, schema: schema) }
            case .scalar(let scalar):
                if let weight = try Self.weight(scalar.directives, at: name) { typeWeights[name] = weight }
            case .enumType(let enumType):
                if let weight = try Self.weight(enumType.directives, at: name) { typeWeights[name] = weight }
            case .inputObject(let input):
                for field in input.fields {
                    let coordinate = "\(name).\(field.name)"
                    if let weight = try Self.weight(field.directives, at: coordinate) {
                        inputFieldWeights[coordinate] = weight
                    }
                }
            case .union: break
            }
        }
    }

    private mutating func read(_ field: FieldDefinitionModel, of typeName: String, schema: Schema)
        throws(GatewayStartError)
    {
        let coordinate = "\(typeName).\(field.name)"
        var cost = FieldCost(weight: try Self.weight(field.directives, at: coordinate))
        for argument in field.arguments {
            if let weight = try Self.weight(argument.directives, at: "\(coordinate)(\(argument.name):)") {
                cost.argumentWeights[argument.name] = weight
            }
        }
        for directive in field.directives where directive.name.value == "costWhen" {
            guard let argument = Self.string(directive, "argument"), let value = Self.string(directive, "value"),
                let weight = Self.int(directive, "weight")
            else { continue }
            guard field.argument(argument) != nil else {
                throw .invalidSchema("@costWhen on \(coordinate) names argument '\(argument)', which it does not have")
            }
            guard weight >= 0 else { throw .invalidSchema("@costWhen on \(coordinate) has a negative weight") }
            cost.weightWhen.append(ConditionalWeight(argument: argument, value: value, weight: weight))
        }
        if let directive = field.directives.first(where: { $0.name.value == "listSize" }) {
            let size = ListSize(
                assumedSize: Self.int(directive, "assumedSize"),
                slicingArguments: Self.strings(directive, "slicingArguments"),
                sizedFields: Self.strings(directive, "sizedFields"),
                requireOneSlicingArgument: Self.bool(directive, "requireOneSlicingArgument") ?? true)
            if let assumed = size.assumedSize, assumed < 0 {
                throw .invalidSchema("@listSize on \(coordinate) has a negative assumedSize")
            }
            for name in size.slicingArguments where field.argument(name) == nil {
                throw .invalidSchema(
                    "@listSize on \(coordinate) names slicing argument '\(name)', which it does not have")
            }
            let returned = schema.types[field.type.namedType]
            for name in size.sizedFields where returned?.field(name) == nil {
                throw .invalidSchema(
                    "@listSize on \(coordinate) names sized field '\(name)', which \(field.type.namedType) does not have"
                )
            }
            cost.listSize = size
        }
        if cost != FieldCost() { fields[coordinate] = cost }
    }

    private static func weight(_ directives: [Directive], at coordinate: String) throws(GatewayStartError) -> Int? {
        guard let directive = directives.first(where: { $0.name.value == "cost" }) else { return nil }
        guard let weight = int(directive, "weight") else {
            throw .invalidSchema("@cost on \(coordinate) needs an integer weight")
        }
        guard weight >= 0 else { throw .invalidSchema("@cost on \(coordinate) has a negative weight (\(weight))") }
        return weight
    }

    private static func argument(_ directive: Directive, _ name: String) -> Value? {
        directive.arguments.first { $0.name.value == name }?.value
    }

    private static func int(_ directive: Directive, _ name: String) -> Int? {
        if case .int(let literal)? = argument(directive, name) { return Int(literal.value) }
        return nil
    }

    private static func bool(_ directive: Directive, _ name: String) -> Bool? {
        if case .boolean(let literal)? = argument(directive, name) { return literal.value }
        return nil
    }

    private static func string(_ directive: Directive, _ name: String) -> String? {
        if case .string(let literal)? = argument(directive, name) { return literal.value }
        return nil
    }

    /// A `[String!]` argument; a single string counts as a list of one (input coercion, §3.1.7).
    private static func strings(_ directive: Directive, _ name: String) -> [String] {
        switch argument(directive, name) {
        case .list(let list)?:
            return list.values.compactMap { value in
                if case .string(let literal) = value { return literal.value }
                return nil
            }
        case .string(let literal)?: return [literal.value]
        default: return []
        }
    }
}
