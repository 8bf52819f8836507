/// CollectFields (spec §6.3.2 "Field Collection"), over several selection sets at once so
/// that CollectSubfields (§6.4.3) is the same call with the merged fields' selection sets.
///
/// Returns the response keys in first-seen order, each with its field nodes in document
/// order ("field merging": same-key fields execute once with all their nodes). Applies
/// `@skip(if:)` / `@include(if:)` (§6.3.2 steps 2.a–b), visits each named fragment at
/// most once per call (`visitedFragments`), and keeps fragments whose type condition
/// `objectType` satisfies (DoesFragmentTypeApply). Unknown fragments are skipped. `@defer`
/// is ignored here (the spec allows a service to deliver deferred data at once).
/// - Throws: `GraphQLError` when a `@skip`/`@include` argument cannot be coerced.
func collectFields(
    objectType: String, selectionSets: [SelectionSet], in context: ExecutionContext
) throws(GraphQLError) -> [(String, [Field])] {
    var collector = FieldCollector(objectType: objectType, context: context, tracksDefer: false)
    for selectionSet in selectionSets {
        try collector.collect(selectionSet, deferUsage: nil)
    }
    return collector.keys.map { ($0, collector.fields[$0] ?? []) }
}

/// One response key of an incremental collection: its field nodes, and for each node the
/// `@defer` it was collected under (nil: not deferred).
struct CollectedField {
    let responseKey: String
    let nodes: [Field]
    let deferUsages: [DeferUsage?]
}

/// CollectFields as the incremental delivery RFC defines it (graphql-js 17 `collectFields`):
/// every field node remembers the innermost `@defer` fragment it was collected in, starting
/// from `deferUsage` of the selection set it came from, and each honoured `@defer` is a new
/// usage listed in `newDeferUsages`. A deferred spread does not mark its fragment visited, so a
/// plain spread of the same fragment is collected too (its fields are then not deferred).
/// - Throws: `GraphQLError` when a `@skip`/`@include`/`@defer` argument cannot be coerced.
func collectFieldsIncrementally(
    objectType: String, selectionSets: [(SelectionSet, DeferUsage?)], in context: ExecutionContext
) throws(GraphQLError) -> (fields: [CollectedField], newDeferUsages: [DeferUsage]) {
    var collector = FieldCollector(objectType: objectType, context: context, tracksDefer: true)
    for (selectionSet, deferUsage) in selectionSets {
        try collector.collect(selectionSet, deferUsage: deferUsage)
    }
    let fields = collector.keys.map { key in
        CollectedField(
            responseKey: key, nodes: collector.fields[key] ?? [], deferUsages: collector.deferUsages[key] ?? [])
    }
    return (fields, collector.newDeferUsages)
}

private struct FieldCollector {
    let objectType: String
    let context: ExecutionContext
    /// Honour `@defer` (incremental execution) rather than ignore it.
    let tracksDefer: Bool
    var keys: [String] = []
    var fields: [String: [Field]] = [:]
    /// Parallel to `fields` when `tracksDefer`.
    var deferUsages: [String: [DeferUsage?]] = [:]
    var newDeferUsages: [DeferUsage] = []
    var visitedFragments: Set<String> = []

    init(objectType: String, context: ExecutionContext, tracksDefer: Bool) {
        self.objectType = objectType
        self.context = context
        self.tracksDefer = tracksDefer
    }

    mutating func collect(_ selectionSet: SelectionSet, deferUsage: DeferUsage?) throws(GraphQLError) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard try shouldInclude(field.directives) else { continue }
                let key = field.responseKey
                if fields[key] == nil {
                    keys.append(key)
                    fields[key] = [field]
                } else {
                    fields[key]?.append(field)
                }
                if tracksDefer { deferUsages[key, default: []].append(deferUsage) }
            case .inlineFragment(let fragment):
                guard try shouldInclude(fragment.directives) else { continue }
                if let condition = fragment.typeCondition, !doesFragmentTypeApply(condition.name.value) { continue }
                try collect(fragment.selectionSet, deferUsage: try deferred(fragment.directives, under: deferUsage))
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), try shouldInclude(spread.directives),
                    let fragment = context.fragments[name], doesFragmentTypeApply(fragment.typeCondition.name.value)
                else { continue }
                let newDeferUsage = try deferred(spread.directives, under: deferUsage)
                if newDeferUsage == nil { visitedFragments.insert(name) }
                try collect(fragment.selectionSet, deferUsage: newDeferUsage ?? deferUsage)
            }
        }
    }

    /// The usage a fragment's fields are collected under: a new one when it is deferred, else
    /// nil (the caller keeps the enclosing one). Always nil when `@defer` is ignored.
    private mutating func deferred(_ directives: [Directive], under parent: DeferUsage?) throws(GraphQLError)
        -> DeferUsage?
    {
        guard tracksDefer, !directives.isEmpty, let usage = try context.deferUsage(directives, parent: parent) else {
            return nil
        }
        newDeferUsages.append(usage)
        return usage
    }

    /// DoesFragmentTypeApply (§6.3.2): the condition is the object type, or an interface or
    /// union it belongs to.
    func doesFragmentTypeApply(_ condition: String) -> Bool {
        if condition == objectType { return true }
        switch context.schema.types[condition] {
        case .interface?, .union?: return context.schema.isPossibleType(condition, objectType)
        default: return false
        }
    }

    /// `@skip(if: true)` excludes; `@include(if: false)` excludes (§3.13.2, §3.13.3).
    func shouldInclude(_ directives: [Directive]) throws(GraphQLError) -> Bool {
        if directives.isEmpty { return true }
        if let skip = directives.first(where: { $0.name.value == "skip" }), try directiveCondition(skip) == true {
            return false
        }
        if let include = directives.first(where: { $0.name.value == "include" }),
            try directiveCondition(include) == false
        {
            return false
        }
        return true
    }

    /// The coerced `if:` argument of a `@skip`/`@include` node (graphql-js `getDirectiveValues`).
    private func directiveCondition(_ directive: Directive) throws(GraphQLError) -> Bool? {
        let definitions =
            context.schema.directive(directive.name.value)?.arguments
            ?? [InputValueModel(name: "if", type: .nonNull(.named("Boolean")))]
        let values = try coerceArgumentValues(
            definitions: definitions, arguments: directive.arguments, node: directive.loc,
            variableValues: context.variableValues, in: context)
        if case .bool(let b)? = values["if"] { return b }
        return nil
    }
}
