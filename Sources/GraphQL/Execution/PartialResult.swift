// The asynchronous half of execution. The synchronous walk (ExecuteSelectionSet.swift)
// leaves a `Partial` wherever a resolver answered `.later`; `finish(_:)` then runs every
// hole of the tree concurrently — one child task per pending part of a selection set or
// list, the lone pending part of a level inline — completes the values they produce (a new
// synchronous walk, which may leave holes of its own), and assembles the final JSON.
//
// Null propagation (§6.4.4) works as in the walk: a pending part that fails throws a
// `FieldFailure`; the entry holding it records the error and becomes null when its
// position is nullable, and rethrows otherwise, nulling the enclosing object or list.

/// A result under construction: plain JSON, or a structure with pending parts inside.
enum Partial: Sendable {
  case value(JSONValue)
  /// An object with at least one pending entry, in response key order.
  case object([PartialEntry])
  /// A list with at least one pending item.
  case list([Partial], itemsNullable: Bool)
  /// A field whose resolver is still to be awaited.
  case pending(PendingField)
}

/// One response key of a pending object; `nullable` is the field type's nullability.
struct PartialEntry: Sendable {
  let key: String
  let value: Partial
  let nullable: Bool
}

/// A field whose resolver answered `.later`: the work, and where its value goes.
struct PendingField: Sendable {
  let plan: FieldPlan
  let work: @Sendable () async throws -> FieldValue
  let path: [PathComponent]
}

extension ExecutionContext {
  /// Awaits every pending part of `partial` and returns the finished JSON.
  /// - Throws: `FieldFailure` when a non-null position inside fails and nothing nullable
  ///   stands between it and `partial`.
  func finish(_ partial: Partial) async throws(FieldFailure) -> JSONValue {
    switch partial {
    case .value(let value):
      return value
    case .pending(let field):
      return try await finish(field)
    case .object(let entries):
      let values = try await finishAll(entries.map { ($0.value, $0.nullable) })
      var object: [(key: String, value: JSONValue)] = []
      object.reserveCapacity(entries.count)
      for (entry, value) in zip(entries, values) { object.append((entry.key, value)) }
      return .object(JSONObject(object))
    case .list(let items, let itemsNullable):
      return .array(try await finishAll(items.map { ($0, itemsNullable) }))
    }
  }

  /// Awaits the resolver, then completes its value (§6.4.3) and finishes what that leaves.
  private func finish(_ field: PendingField) async throws(FieldFailure) -> JSONValue {
    let value: FieldValue
    do {
      value = try await field.work()
    } catch {
      throw FieldFailure(error: located(graphQLError(from: error), nodes: field.plan.fieldNodes, path: field.path))
    }
    var path = field.path
    let completed = try completeValue(field.plan.shape, field: field.plan, value: value, path: &path)
    return try await finish(completed)
  }

  /// Finishes `parts` concurrently. A failed nullable part is recorded and null; after
  /// all parts settle, the first failed non-null part (in order) is rethrown.
  private func finishAll(_ parts: [(Partial, Bool)]) async throws(FieldFailure) -> [JSONValue] {
    var results = [JSONValue](repeating: .null, count: parts.count)
    var pending: [Int] = []
    for (index, part) in parts.enumerated() {
      if case .value(let value) = part.0 { results[index] = value } else { pending.append(index) }
    }
    var failures: [(Int, FieldFailure)] = []
    func settle(_ index: Int, _ outcome: Result<JSONValue, FieldFailure>) {
      switch outcome {
      case .success(let value): results[index] = value
      case .failure(let failure):
        if parts[index].1 {
          record(failure.error)
        } else {
          failures.append((index, failure))
        }
      }
    }
    if pending.count == 1 {
      // One pending part: no sibling to overlap with, so no task.
      let index = pending[0]
      do {
        settle(index, .success(try await finish(parts[index].0)))
      } catch {
        settle(index, .failure(error))
      }
    } else if !pending.isEmpty {
      await withTaskGroup(of: (Int, Result<JSONValue, FieldFailure>).self) { group in
        for index in pending {
          let part = parts[index].0
          activity?.enter()
          group.addTask {
            defer { self.activity?.leave() }
            do throws(FieldFailure) {
              return (index, .success(try await self.finish(part)))
            } catch {
              return (index, .failure(error))
            }
          }
        }
        // Waiting on the children: this task is not runnable until one reports back.
        activity?.leave()
        for await (index, outcome) in group { settle(index, outcome) }
        activity?.enter()
      }
    }
    if let first = failures.min(by: { $0.0 < $1.0 }) { throw first.1 }
    return results
  }
}
