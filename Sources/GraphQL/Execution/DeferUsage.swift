/// One `@defer` that CollectFields honoured: a deferred fragment spread or inline fragment of
/// the document, met while collecting one selection set (graphql-js 17 `DeferUsage`; incremental
/// delivery RFC, graphql-spec branch `incremental-integration`, "Field Collection").
///
/// A usage belongs to the plan, not to one object: the fields of every item of a list share it,
/// and each object position gets a `DeferredFragmentRecord` of its own for it at execution.
/// `parent` is the usage whose fields held this fragment (nil at the top of the operation or of
/// a streamed item): its record must be delivered before this one is announced.
final class DeferUsage: Sendable {
    let label: String?
    let parent: DeferUsage?

    init(label: String?, parent: DeferUsage?) {
        self.label = label
        self.parent = parent
    }

    /// Whether `ancestor` is this usage's parent, or its parent's, and so on.
    func hasAncestor(in usages: [DeferUsage]) -> Bool {
        var current = parent
        while let usage = current {
            if usages.contains(where: { $0 === usage }) { return true }
            current = usage.parent
        }
        return false
    }
}

/// Usage sets compare by identity and without order (graphql-js `isSameSet`).
func isSameUsageSet(_ a: [DeferUsage], _ b: [DeferUsage]) -> Bool {
    a.count == b.count && a.allSatisfy { usage in b.contains { $0 === usage } }
}

/// What `@stream` asks of one list field (graphql-js 17 `StreamUsage`): how many items go in the
/// payload that holds the list, and the label of its pending notice.
struct StreamUsage: Sendable {
    let initialCount: Int
    let label: String?
}

extension ExecutionContext {
    /// The coerced arguments of a `@defer` or `@stream` node, by the schema's definition.
    /// - Throws: `GraphQLError` at the offending value when coercion fails (a null for
    ///   `if: Boolean!`, …): a field error of the field whose completion needed it.
    func incrementalDirectiveArguments(_ directive: Directive) throws(GraphQLError) -> JSONObject? {
        guard let definition = schema.directive(directive.name.value) else { return nil }
        return try coerceArgumentValues(
            definitions: definition.arguments, arguments: directive.arguments, node: directive.loc,
            variableValues: variableValues, in: self)
    }

    /// The `@defer` of a fragment, as a usage under `parent`; nil without `@defer`, with
    /// `if: false`, or when the schema has no such directive (graphql-js 17 `getDeferUsage`).
    /// - Throws: `GraphQLError` when its arguments cannot be coerced, or for an unconditional
    ///   `@defer` in a subscription (validation normally rejects one).
    func deferUsage(_ directives: [Directive], parent: DeferUsage?) throws(GraphQLError) -> DeferUsage? {
        guard let directive = directives.first(where: { $0.name.value == "defer" }),
            let arguments = try incrementalDirectiveArguments(directive)
        else { return nil }
        if case .bool(false)? = arguments["if"] { return nil }
        guard operation.operation != .subscription else {
            throw GraphQLError(
                "`@defer` directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`."
            )
        }
        if case .string(let label)? = arguments["label"] { return DeferUsage(label: label, parent: parent) }
        return DeferUsage(label: nil, parent: parent)
    }

    /// The `@stream` of a list field's first node (validation makes the others agree), nil
    /// without one or with `if: false` (graphql-js 17 `getStreamUsage`).
    /// - Throws: `GraphQLError` when its arguments cannot be coerced (located at the value), for
    ///   a negative `initialCount` or in a subscription (no location: the field's is added).
    func streamUsage(of field: Field) throws(GraphQLError) -> StreamUsage? {
        guard let directive = field.directives.first(where: { $0.name.value == "stream" }),
            let arguments = try incrementalDirectiveArguments(directive)
        else { return nil }
        if case .bool(false)? = arguments["if"] { return nil }
        guard case .int(let initialCount)? = arguments["initialCount"] else {
            throw GraphQLError("initialCount must be a number")
        }
        guard initialCount >= 0 else {
            throw GraphQLError("initialCount must be a positive integer")
        }
        guard operation.operation != .subscription else {
            throw GraphQLError(
                "`@stream` directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`."
            )
        }
        if case .string(let label)? = arguments["label"] {
            return StreamUsage(initialCount: initialCount, label: label)
        }
        return StreamUsage(initialCount: initialCount, label: nil)
    }
}
