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

  init(objectType: String, fields: [FieldPlan]) {
    self.objectType = objectType
    self.fields = fields
  }

  /// Plans `selectionSets` (the merged selection sets of one response key, or the
  /// operation's) for `objectType`.
  /// - Throws: `GraphQLError` when a `@skip`/`@include` argument cannot be coerced.
  static func make(
    objectType: String, selectionSets: [SelectionSet], in context: ExecutionContext
  ) throws(GraphQLError) -> SelectionPlan {
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

/// How a field's value is produced.
enum ResolverChoice: Sendable {
  /// graphql-js `defaultFieldResolver`: the same-named key of a JSON object.
  case property
  /// `__typename` (§4.3): the name of the object type.
  case typename
  case custom(any FieldResolver)
}

/// One response key of a selection plan: its merged field nodes, definition, resolver,
/// coerced arguments, completion shape, and (lazily) the plans of its sub-selections.
final class FieldPlan: Sendable {
  let responseKey: String
  let fieldName: String
  let fieldNodes: [Field]
  let parentType: String
  let definition: FieldDefinitionModel
  let resolver: ResolverChoice
  /// CoerceArgumentValues (§6.4.1) from the first field node, or the error it raised
  /// (reported at each execution of the field, with that execution's path).
  let arguments: Result<JSONObject, GraphQLError>
  let shape: CompletionShape
  let isNullable: Bool
  /// Sub-selection plans by object type name; usually one entry, several below abstract types.
  private let subPlans = Mutex<[(String, Result<SelectionPlan, GraphQLError>)]>([])

  init(
    responseKey: String, fieldNodes: [Field], parentType: String, definition: FieldDefinitionModel,
    context: ExecutionContext
  ) {
    self.responseKey = responseKey
    self.fieldName = definition.name
    self.fieldNodes = fieldNodes
    self.parentType = parentType
    self.definition = definition
    self.shape = CompletionShape(definition.type, schema: context.schema)
    self.isNullable = !definition.type.isNonNull
    if definition.name == "__typename" {
      resolver = .typename
    } else if let builtIn = introspectionResolver(field: definition.name, on: parentType, schema: context.schema) {
      resolver = .custom(builtIn)
    } else if let custom = context.resolvers.resolver(for: definition, on: parentType) {
      resolver = .custom(custom)
    } else {
      resolver = .property
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
  }

  /// CollectSubfields (§6.4.3) of this field's nodes for `objectType`, cached.
  func subPlan(for objectType: String, in context: ExecutionContext) -> Result<SelectionPlan, GraphQLError> {
    if let hit = subPlans.withLock({ cache in cache.first { $0.0 == objectType }?.1 }) { return hit }
    // Built outside the lock: planning may recurse into fragments, never into this cache.
    let built = Result { () throws(GraphQLError) in
      try SelectionPlan.make(
        objectType: objectType, selectionSets: fieldNodes.compactMap(\.selectionSet), in: context)
    }
    return subPlans.withLock { cache in
      if let raced = cache.first(where: { $0.0 == objectType })?.1 { return raced }
      cache.append((objectType, built))
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
