import GraphQL

/// The default property resolvers of `exec --incremental`, with the conformance kit's delay
/// convention (../shared/conformance/README.md "Incremental delivery"): a JSON object of
/// exactly `{"__delayMs": N, "value": V}` stands for `V`, known N ms later.
///
/// - As a field's value, the field resolves to `V` N ms after it is resolved (graphql-js: the
///   resolver returns a Promise).
/// - As a list item, the item is `V` N ms after the list's field resolved; all items' timers
///   start together (a list of Promises, `FieldValue.pending` items).
/// - Delays inside `V` start when their own fields are resolved.
struct DelayedValueResolvers: ExecutionResolvers {
    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        DelayedPropertyResolver(key: field.name)
    }
}

/// graphql-js's default resolver (the same-named key of the parent object) over delays.
private struct DelayedPropertyResolver: FieldResolver {
    let key: String

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        guard case .json(.object(let object)) = source else { return .value(.null) }
        let value = object[key] ?? .null
        guard let (milliseconds, inner) = delay(value) else { return .value(itemsResolved(value)) }
        return .later {
            try await Task.sleep(for: .milliseconds(milliseconds))
            return itemsResolved(inner)
        }
    }
}

/// `value` with each delayed list item (in lists of lists too) a pending value whose timer
/// starts now.
private func itemsResolved(_ value: JSONValue) -> FieldValue {
    guard case .array(let items) = value, items.contains(where: { delay($0) != nil || isArray($0) }) else {
        return .json(value)
    }
    let clock = ContinuousClock()
    let now = clock.now
    return .list(
        items.map { item in
            guard let (milliseconds, inner) = delay(item) else { return itemsResolved(item) }
            let due = now.advanced(by: .milliseconds(milliseconds))
            return .pending(
                PendingValue {
                    try await Task.sleep(until: due, clock: clock)
                    return .json(inner)
                })
        })
}

private func isArray(_ value: JSONValue) -> Bool {
    if case .array = value { return true }
    return false
}

/// The milliseconds and value of a delay object: exactly the keys `__delayMs` (an integer
/// >= 0) and `value`.
private func delay(_ value: JSONValue) -> (Int, JSONValue)? {
    guard case .object(let object) = value, object.count == 2, case .int(let milliseconds)? = object["__delayMs"],
        milliseconds >= 0, let inner = object["value"]
    else { return nil }
    return (milliseconds, inner)
}
