// The synchronous walk of execution (spec §6.3 "Executing Selection Sets", §6.4
// "Executing Fields"). It runs every synchronous resolver inline, depth first, building
// the response as it goes; it never suspends. A resolver that answers `.later` leaves a
// `Partial.pending` hole in the result instead, which `finish(_:)` (PartialResult.swift)
// fills concurrently once the walk is done. A fully synchronous operation therefore runs
// as plain function calls: no task, no allocation beyond the result itself.

extension ExecutionContext {
  /// ExecuteSelectionSet (§6.3) for `plan` on `source` — graphql-js `executeFields`.
  /// `path` is the response path of the object; it is restored on return and on throw.
  /// - Throws: `FieldFailure` when a non-null field fails: this object is then null.
  func executeSelectionSet(
    _ plan: SelectionPlan, source: FieldValue, path: inout [PathComponent]
  ) throws(FieldFailure) -> Partial {
    var entries: [(key: String, value: JSONValue)] = []
    entries.reserveCapacity(plan.fields.count)
    var partialEntries: [PartialEntry]? = nil
    for field in plan.fields {
      path.append(.key(field.responseKey))
      defer { path.removeLast() }
      let result = try executeField(field, source: source, path: &path)
      if partialEntries == nil, case .value(let value) = result {
        entries.append((field.responseKey, value))
        continue
      }
      if partialEntries == nil {
        partialEntries = entries.map { PartialEntry(key: $0.key, value: .value($0.value), nullable: true) }
      }
      partialEntries?.append(PartialEntry(key: field.responseKey, value: result, nullable: field.isNullable))
    }
    if let partialEntries { return .object(partialEntries) }
    return .value(.object(JSONObject(entries)))
  }

  /// ExecuteField (§6.4): CoerceArgumentValues (planned), ResolveFieldValue, then
  /// CompleteValue; a field error in a nullable field is recorded and the field is null
  /// (§6.4.4), in a non-null field it propagates. `path` ends with this field's key.
  func executeField(_ field: FieldPlan, source: FieldValue, path: inout [PathComponent]) throws(FieldFailure) -> Partial {
    let value: FieldValue
    switch field.resolver {
    case .property:
      if case .failure(let error) = field.arguments { return try fieldError(error, field, path) }
      value = readProperty(of: source, field.fieldName)
    case .typename:
      value = .json(.string(field.parentType))
    case .custom(let resolver):
      let arguments: JSONObject
      switch field.arguments {
      case .success(let coerced): arguments = coerced
      case .failure(let error): return try fieldError(error, field, path)
      }
      let resolution: Resolution
      do {
        resolution = try resolver.resolve(
          source: source, arguments: arguments, info: ResolveInfo(plan: field, execution: self, path: path))
      } catch {
        return try fieldError(graphQLError(from: error), field, path)
      }
      switch resolution {
      case .value(let resolved):
        value = resolved
      case .later(let work):
        guard allowsAsync else {
          return try fieldError(
            GraphQLError(
              "The resolver of \(field.parentType).\(field.fieldName) is asynchronous; run the operation with execute(…) async."
            ), field, path)
        }
        return .pending(PendingField(plan: field, work: work, path: path))
      }
    }
    do {
      return try completeValue(field.shape, field: field, value: value, path: &path)
    } catch {
      if field.isNullable {
        record(error.error)
        return .value(.null)
      }
      throw error
    }
  }

  /// A field error raised before completion: recorded (null) or propagated by nullability.
  private func fieldError(_ error: GraphQLError, _ field: FieldPlan, _ path: [PathComponent]) throws(FieldFailure)
    -> Partial
  {
    let error = located(error, nodes: field.fieldNodes, path: path)
    if field.isNullable {
      record(error)
      return .value(.null)
    }
    throw FieldFailure(error: error)
  }
}

/// graphql-js `defaultFieldResolver`: the same-named key of a JSON object (absent → null),
/// or a `PropertyReadable` value's property; null for anything else.
@inline(__always)
func readProperty(of source: FieldValue, _ name: String) -> FieldValue {
  switch source {
  case .json(.object(let object)): return .json(object[name] ?? .null)
  case .host(let host as PropertyReadable): return host.property(name)
  default: return .null
  }
}

/// A resolver's thrown error as a GraphQL error (message and extensions kept).
func graphQLError(from error: any Error) -> GraphQLError {
  if let error = error as? GraphQLError { return error }
  if let convertible = error as? GraphQLErrorConvertible { return convertible.graphQLError }
  return GraphQLError(String(describing: error))
}
