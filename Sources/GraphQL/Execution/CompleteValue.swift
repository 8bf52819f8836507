extension ExecutionContext {
  /// CompleteValue (spec §6.4.3 "Value Completion"; graphql-js `completeValue`): shapes a
  /// resolved value to the field's type — non-null checks, lists item by item, leaves
  /// serialized, objects and abstract types through their sub-selection.
  /// `path` is the position being completed (the field, or a list item inside it).
  /// - Throws: `FieldFailure`, already located at `path`, for the caller to record or
  ///   propagate (§6.4.4).
  func completeValue(
    _ shape: CompletionShape, field: FieldPlan, value: FieldValue, path: inout [PathComponent]
  ) throws(FieldFailure) -> Partial {
    if case .nonNull(let inner) = shape {
      let completed = try completeValue(inner, field: field, value: value, path: &path)
      if case .value(.null) = completed {
        throw failure(
          "Cannot return null for non-nullable field \(field.parentType).\(field.fieldName).", field, path)
      }
      return completed
    }
    if value.isNull { return .value(.null) }
    switch shape {
    case .leaf(let kind):
      switch serializeLeaf(value, kind) {
      case .success(let serialized): return .value(serialized)
      case .failure(let message): throw failure(message.text, field, path)
      }
    case .object(let typeName):
      return try completeObjectValue(typeName, field: field, value: value, path: &path)
    case .abstract(let abstractType):
      let typeName = try resolveAbstractType(abstractType, field: field, value: value, path: path)
      return try completeObjectValue(typeName, field: field, value: value, path: &path)
    case .list(let itemShape):
      return try completeListValue(itemShape, field: field, value: value, path: &path)
    case .nonNull, .unknown:
      return .value(.null)
    }
  }

  /// Lists (§6.4.3 step 3): each item completed at its index; a failed nullable item is
  /// null, a failed non-null item fails the whole list.
  private func completeListValue(
    _ itemShape: CompletionShape, field: FieldPlan, value: FieldValue, path: inout [PathComponent]
  ) throws(FieldFailure) -> Partial {
    let itemsNullable = !itemShape.isNonNull
    var results: [JSONValue] = []
    var partials: [Partial]? = nil

    func complete(_ item: FieldValue, at index: Int, path: inout [PathComponent]) throws(FieldFailure) {
      path.append(.index(index))
      defer { path.removeLast() }
      var completed: Partial
      do {
        completed = try completeValue(itemShape, field: field, value: item, path: &path)
      } catch {
        guard itemsNullable else { throw error }
        record(error.error)
        completed = .value(.null)
      }
      if partials == nil, case .value(let v) = completed {
        results.append(v)
      } else {
        if partials == nil { partials = results.map { .value($0) } }
        partials?.append(completed)
      }
    }

    switch value {
    case .json(.array(let items)):
      results.reserveCapacity(items.count)
      for (index, item) in items.enumerated() { try complete(.json(item), at: index, path: &path) }
    case .list(let items):
      results.reserveCapacity(items.count)
      for (index, item) in items.enumerated() { try complete(item, at: index, path: &path) }
    default:
      throw failure(
        "Expected Iterable, but did not find one for field \"\(field.parentType).\(field.fieldName)\".", field, path)
    }
    if let partials { return .list(partials, itemsNullable: itemsNullable) }
    return .value(.array(results))
  }

  /// Objects (§6.4.3 step 4): ExecuteSelectionSet over the merged sub-selections.
  private func completeObjectValue(
    _ typeName: String, field: FieldPlan, value: FieldValue, path: inout [PathComponent]
  ) throws(FieldFailure) -> Partial {
    switch field.subPlan(for: typeName, in: self) {
    case .success(let plan): return try executeSelectionSet(plan, source: value, path: &path)
    case .failure(let error): throw FieldFailure(error: located(error, nodes: field.fieldNodes, path: path))
    }
  }

  /// ResolveAbstractType (§6.4.3) and graphql-js's checks on its answer
  /// (`ensureValidRuntimeType`), with graphql-js's messages.
  private func resolveAbstractType(
    _ abstractType: String, field: FieldPlan, value: FieldValue, path: [PathComponent]
  ) throws(FieldFailure) -> String {
    let resolved: String?
    do {
      resolved = try resolvers.resolveType(
        of: value, abstractType: abstractType, info: ResolveInfo(plan: field, execution: self, path: path))
    } catch {
      throw FieldFailure(error: located(graphQLError(from: error), nodes: field.fieldNodes, path: path))
    }
    guard let typeName = resolved else {
      throw failure(
        "Abstract type \"\(abstractType)\" must resolve to an Object type at runtime for field \"\(field.parentType).\(field.fieldName)\". Either the \"\(abstractType)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function.",
        field, path)
    }
    switch schema.types[typeName] {
    case nil:
      throw failure(
        "Abstract type \"\(abstractType)\" was resolved to a type \"\(typeName)\" that does not exist inside the schema.",
        field, path)
    case .object?:
      guard schema.isPossibleType(abstractType, typeName) else {
        throw failure("Runtime Object type \"\(typeName)\" is not a possible type for \"\(abstractType)\".", field, path)
      }
      return typeName
    default:
      throw failure(
        "Abstract type \"\(abstractType)\" was resolved to a non-object type \"\(typeName)\".", field, path)
    }
  }

  private func failure(_ message: String, _ field: FieldPlan, _ path: [PathComponent]) -> FieldFailure {
    FieldFailure(error: located(GraphQLError(message), nodes: field.fieldNodes, path: path))
  }
}
