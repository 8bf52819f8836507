import Synchronization

// The executor runs CollectFields (spec §6.3.2) once per (selection, object type) and
// execution, not once per object: for a list of 12,000 tracks the fields of `Track` are
// collected, looked up, their arguments coerced and their resolvers chosen one time, and
// the resulting plan is reused for every track. Variables are fixed during an execution,
// so `@skip`/`@include` and argument values are plan-time constants too.

/// The fields to execute on one object type: CollectFields' ordered response keys.
final class SelectionPlan: Sendable {
    let objectType: String
    let fields: [FieldPlan]
    /// What incremental execution does at this object beyond `fields`: the `@defer` usages it
    /// starts and the execution groups it defers (IncrementalPlan.swift); nil when there are none.
    let incremental: IncrementalSelection?

    init(objectType: String, fields: [FieldPlan], incremental: IncrementalSelection? = nil) {
        self.objectType = objectType
        self.fields = fields
        self.incremental = incremental
    }

    /// Plans `selectionSets` (the merged selection sets of one response key, or the
    /// operation's) for `objectType`.
    /// - Throws: `GraphQLError` when a `@skip`/`@include` argument cannot be coerced.
    static func make(
        objectType: String, selectionSets: [SelectionSet], in context: ExecutionContext
    ) throws(GraphQLError) -> SelectionPlan {
        if context.incremental {
            return try makeIncremental(
                objectType: objectType, selectionSets: selectionSets.map { ($0, nil) }, groupUsages: [], in: context)
        }
        let grouped = try collectFields(objectType: objectType, selectionSets: selectionSets, in: context)
        var plans: [FieldPlan] = []
        plans.reserveCapacity(grouped.count)
        for (responseKey, nodes) in grouped {
            let fieldName = nodes[0].name.value
            // graphql-js `executeFields` skips fields the schema does not define (validation
            // rejects them; unvalidated documents just get no entry).
            guard let definition = context.schema.fieldDefinition(fieldName, on: objectType) else { continue }
            plans.append(
                FieldPlan(
                    responseKey: responseKey, fieldNodes: nodes, parentType: objectType, definition: definition,
                    context: context))
        }
        return SelectionPlan(objectType: objectType, fields: plans)
    }
}

/// How a field's value is produced (a payload-free enum: switching on it copies nothing).
enum ResolverKind: UInt8, Sendable {
    /// graphql-js `defaultFieldResolver`: the same-named key of a JSON object.
    case property
    /// `__typename` (§4.3): the name of the object type.
    case typename
    /// `FieldPlan.customResolver`.
    case custom
}

/// A leaf field (not a list) whose well-typed JSON values are written without going
/// through CompleteValue: the hot path of static data.
enum FastLeaf: UInt8, Sendable {
    case none, string, id, int, float, boolean, enumType
}

/// One response key of a selection plan: its merged field nodes, definition, resolver,
/// coerced arguments, completion shape, and (lazily) the plans of its sub-selections.
final class FieldPlan: Sendable {
    let responseKey: String
    let fieldName: String
    let fieldNodes: [Field]
    let parentType: String
    let definition: FieldDefinitionModel
    let resolverKind: ResolverKind
    let customResolver: (any FieldResolver)?
    /// Set for `T` and `T!` leaf fields; `enumNames` holds an enum's value names.
    let fastLeaf: FastLeaf
    let enumNames: Set<String>
    /// CoerceArgumentValues (§6.4.1) from the first field node, or the error it raised
    /// (reported at each execution of the field, with that execution's path).
    let arguments: Result<JSONObject, GraphQLError>
    /// `arguments` failed (checked per execution of the field without copying the Result).
    let hasArgumentError: Bool
    let shape: CompletionShape
    let isNullable: Bool
    /// `"responseKey":` as UTF-8, written before the value; owned by the plan (freed in
    /// `deinit`), never written after `init`. Raw memory, not `[UInt8]`: reading an array
    /// property retains and releases its storage, twice per field written (~3% of a
    /// 400,000-field execution).
    nonisolated(unsafe) let encodedKey: UnsafeBufferPointer<UInt8>
    /// The `@defer` usages of the nodes and the field's `@stream`, in incremental execution
    /// only (IncrementalPlan.swift).
    let incremental: IncrementalField?
    /// Where `fieldName` was last found among a source JSON object's keys: objects of one
    /// list usually share their key order, so the default resolver's lookup is one compare.
    /// Relaxed: a stale hint only costs a scan.
    private let keyHint = Atomic<Int>(0)
    /// Sub-selection plans by object type name; usually one entry, several below abstract types.
    private let subPlans = Mutex<[(String, Result<SelectionPlan, GraphQLError>)]>([])
    /// The first entry of `subPlans`, read without the lock: every object of a list (and every
    /// concurrent request sharing the prepared plan) asks for it, and on Linux a contended
    /// `Mutex` is a priority-inheriting futex, a system call each time (a tenth of the CPU of
    /// an executed `albums { artist { … } }` request under load went there).
    private let firstSubPlan = LazyReference<SubPlan>()

    /// One kept sub-selection plan.
    private final class SubPlan: Sendable {
        let objectType: String
        let plan: Result<SelectionPlan, GraphQLError>
        init(_ objectType: String, _ plan: Result<SelectionPlan, GraphQLError>) {
            self.objectType = objectType
            self.plan = plan
        }
    }

    init(
        responseKey: String, fieldNodes: [Field], parentType: String, definition: FieldDefinitionModel,
        context: ExecutionContext, incremental: IncrementalField? = nil
    ) {
        self.incremental = incremental
        self.responseKey = responseKey
        self.fieldName = definition.name
        self.fieldNodes = fieldNodes
        self.parentType = parentType
        self.definition = definition
        self.shape = CompletionShape(definition.type, schema: context.schema)
        self.isNullable = !definition.type.isNonNull
        let keyBuffer = JSONByteBuffer(capacity: responseKey.utf8.count + 4)
        keyBuffer.write(string: responseKey)
        keyBuffer.append(UInt8(ascii: ":"))
        let key = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: keyBuffer.count)
        _ = key.initialize(from: UnsafeBufferPointer(start: keyBuffer.pointer, count: keyBuffer.count))
        self.encodedKey = UnsafeBufferPointer(key)
        if definition.name == "__typename" {
            resolverKind = .typename
            customResolver = nil
        } else if let builtIn = introspectionResolver(field: definition.name, on: parentType, schema: context.schema) {
            resolverKind = .custom
            customResolver = builtIn
        } else if let custom = context.resolvers.resolver(for: definition, on: parentType) {
            resolverKind = .custom
            customResolver = custom
        } else {
            resolverKind = .property
            customResolver = nil
        }
        var leafShape = shape
        if case .nonNull(let inner) = leafShape { leafShape = inner }
        switch leafShape {
        case .leaf(.string): (fastLeaf, enumNames) = (.string, [])
        case .leaf(.id): (fastLeaf, enumNames) = (.id, [])
        case .leaf(.int): (fastLeaf, enumNames) = (.int, [])
        case .leaf(.float): (fastLeaf, enumNames) = (.float, [])
        case .leaf(.boolean): (fastLeaf, enumNames) = (.boolean, [])
        case .leaf(.enumType(let values)): (fastLeaf, enumNames) = (.enumType, values.names)
        default: (fastLeaf, enumNames) = (.none, [])
        }
        if definition.arguments.isEmpty {
            arguments = .success(JSONObject())
        } else {
            arguments = Result { () throws(GraphQLError) in
                try coerceArgumentValues(
                    definitions: definition.arguments, arguments: fieldNodes[0].arguments, node: fieldNodes[0].loc,
                    variableValues: context.variableValues, in: context)
            }
        }
        if case .failure = arguments { hasArgumentError = true } else { hasArgumentError = false }
    }

    deinit { encodedKey.deallocate() }

    /// The value of key `fieldName` in a JSON object; null when absent.
    @inline(__always)
    func lookup(in object: JSONObject) -> JSONValue {
        object.entries.withUnsafeBufferPointer { entries in
            let hint = keyHint.load(ordering: .relaxed)
            if hint < entries.count && entries[hint].key == fieldName { return entries[hint].value }
            for i in entries.indices where entries[i].key == fieldName {
                keyHint.store(i, ordering: .relaxed)
                return entries[i].value
            }
            return .null
        }
    }

    /// graphql-js `defaultFieldResolver`: the same-named key of a JSON object (absent →
    /// null), or a `PropertyReadable` value's property; null for anything else.
    @inline(__always)
    func readProperty(of source: FieldValue) -> FieldValue {
        switch source {
        case .json(.object(let object)):
            return .json(lookup(in: object))
        case .object(let object):
            return object.property(fieldName)
        case .hostBox(let box):
            return box.propertyReadable?.property(fieldName) ?? .null
        default:
            return .null
        }
    }

    /// CollectSubfields (§6.4.3) of this field's nodes for `objectType`, cached.
    func subPlan(for objectType: String, in context: ExecutionContext) -> Result<SelectionPlan, GraphQLError> {
        if let first = firstSubPlan.load(), first.objectType == objectType { return first.plan }
        if let hit = subPlans.withLock({ cache in cache.first { $0.0 == objectType }?.1 }) { return hit }
        // Built outside the lock: planning may recurse into fragments, never into this cache.
        let built = Result { () throws(GraphQLError) in
            if let incremental {
                return try SelectionPlan.makeIncremental(
                    objectType: objectType,
                    selectionSets: zip(fieldNodes, incremental.deferUsages).compactMap { node, usage in
                        node.selectionSet.map { ($0, usage) }
                    }, groupUsages: incremental.groupUsages, in: context)
            }
            return try SelectionPlan.make(
                objectType: objectType, selectionSets: fieldNodes.compactMap(\.selectionSet), in: context)
        }
        return subPlans.withLock { cache in
            if let raced = cache.first(where: { $0.0 == objectType })?.1 { return raced }
            cache.append((objectType, built))
            if cache.count == 1 { _ = firstSubPlan.storeIfNil(SubPlan(objectType, built)) }
            return built
        }
    }
}

/// A field's return type, pre-digested for CompleteValue (§6.4.3): wrappers, then what the
/// named type needs (leaf serialization, object plan, abstract type resolution).
indirect enum CompletionShape: Sendable {
    case nonNull(CompletionShape)
    case list(CompletionShape)
    case leaf(LeafKind)
    case object(String)
    case abstract(String)
    /// A type name the schema does not define (only in unvalidated schemas); always null.
    case unknown(String)

    init(_ type: TypeReference, schema: Schema) {
        switch type {
        case .nonNull(let inner): self = .nonNull(CompletionShape(inner, schema: schema))
        case .list(let inner): self = .list(CompletionShape(inner, schema: schema))
        case .named(let name):
            switch schema.types[name] {
            case .scalar(let s)?: self = .leaf(LeafKind(scalar: s.name))
            case .enumType(let e)?: self = .leaf(.enumType(EnumValues(e)))
            case .object?: self = .object(name)
            case .interface?, .union?: self = .abstract(name)
            case .inputObject?, nil: self = .unknown(name)
            }
        }
    }

    var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }
}

/// The serialization a leaf type needs (§3.5 Result Coercion).
enum LeafKind: Sendable {
    case int, float, string, boolean, id
    /// A custom scalar: JSON passes through (graphql-js's identity `serialize`).
    case custom(String)
    case enumType(EnumValues)

    init(scalar name: String) {
        switch name {
        case "Int": self = .int
        case "Float": self = .float
        case "String": self = .string
        case "Boolean": self = .boolean
        case "ID": self = .id
        default: self = .custom(name)
        }
    }
}

/// An enum type's value names, as a set for the per-value membership check.
final class EnumValues: Sendable {
    let typeName: String
    let names: Set<String>
    init(_ type: EnumType) {
        typeName = type.name
        names = Set(type.values.map(\.name))
    }
}
