// Execution plans for incremental delivery. The plan of an object type (SelectionPlan) gains
// the `@defer` usages its selection set starts and the execution groups it defers; the plan
// of a field (FieldPlan) gains the usages of its nodes, the group it executes in, and its
// `@stream`. Like the rest of a plan, all of it is computed once per (selection, object type)
// and execution, never per object: variables are fixed, so `@defer(if:)` and `@stream`'s
// arguments are plan-time constants.

/// A SelectionPlan's incremental part.
final class IncrementalSelection: Sendable {
    /// The `@defer` usages met while collecting this selection set: each object completed with
    /// this plan gets a deferred fragment record for each (graphql-js `addNewDeferredFragments`).
    let newDeferUsages: [DeferUsage]
    /// The execution groups deferred at this object, in first-field order.
    let deferredGroups: [DeferredGroupPlan]

    init(newDeferUsages: [DeferUsage], deferredGroups: [DeferredGroupPlan]) {
        self.newDeferUsages = newDeferUsages
        self.deferredGroups = deferredGroups
    }
}

/// One deferred execution group of an object type: the fields that exactly the deferred
/// fragments of `usages` select there.
struct DeferredGroupPlan: Sendable {
    let usages: [DeferUsage]
    let plan: SelectionPlan
}

/// A FieldPlan's incremental part.
final class IncrementalField: Sendable {
    /// Parallel to `FieldPlan.fieldNodes`: the `@defer` each node was collected under; the
    /// nodes' sub-selections start from it.
    let deferUsages: [DeferUsage?]
    /// The usages of the execution group this field runs in (empty: the initial payload or a
    /// streamed item); sub-selections split against it.
    let groupUsages: [DeferUsage]
    /// The field's `@stream` (nil: none, or `if: false`), or the error its arguments raise,
    /// reported as a field error wherever the list is completed.
    let stream: Result<StreamUsage?, GraphQLError>
    /// The plan that completes the items past `initialCount`: the same field with no `@defer`
    /// usages (graphql-js 17 streams items outside every deferred fragment).
    let streamedItems: FieldPlan?

    init(
        deferUsages: [DeferUsage?], groupUsages: [DeferUsage], stream: Result<StreamUsage?, GraphQLError>,
        streamedItems: FieldPlan?
    ) {
        self.deferUsages = deferUsages
        self.groupUsages = groupUsages
        self.stream = stream
        self.streamedItems = streamedItems
    }
}

extension SelectionPlan {
    /// CollectFields with `@defer` (collectFieldsIncrementally), split by buildExecutionPlan
    /// against `groupUsages`, the execution group the object is completed in.
    /// - Throws: `GraphQLError` when a `@skip`/`@include`/`@defer` argument cannot be coerced.
    static func makeIncremental(
        objectType: String, selectionSets: [(SelectionSet, DeferUsage?)], groupUsages: [DeferUsage],
        in context: ExecutionContext
    ) throws(GraphQLError) -> SelectionPlan {
        let (collected, newDeferUsages) = try collectFieldsIncrementally(
            objectType: objectType, selectionSets: selectionSets, in: context)
        let split = buildExecutionPlan(collected, parentUsages: groupUsages)
        let fields = fieldPlans(split.fields, objectType: objectType, groupUsages: groupUsages, in: context)
        let groups = split.deferredGroups.compactMap { group -> DeferredGroupPlan? in
            let plans = fieldPlans(group.fields, objectType: objectType, groupUsages: group.usages, in: context)
            if plans.isEmpty { return nil }
            return DeferredGroupPlan(usages: group.usages, plan: SelectionPlan(objectType: objectType, fields: plans))
        }
        let incremental =
            newDeferUsages.isEmpty && groups.isEmpty
            ? nil : IncrementalSelection(newDeferUsages: newDeferUsages, deferredGroups: groups)
        return SelectionPlan(objectType: objectType, fields: fields, incremental: incremental)
    }

    private static func fieldPlans(
        _ fields: [CollectedField], objectType: String, groupUsages: [DeferUsage], in context: ExecutionContext
    ) -> [FieldPlan] {
        fields.compactMap { field in
            // As `make`: fields the schema does not define get no entry.
            guard let definition = context.schema.fieldDefinition(field.nodes[0].name.value, on: objectType) else {
                return nil
            }
            return FieldPlan.incremental(
                responseKey: field.responseKey, fieldNodes: field.nodes, deferUsages: field.deferUsages,
                parentType: objectType, definition: definition, groupUsages: groupUsages, in: context)
        }
    }
}

extension FieldPlan {
    /// A field plan of incremental execution, with its `@stream` read from its first node.
    static func incremental(
        responseKey: String, fieldNodes: [Field], deferUsages: [DeferUsage?], parentType: String,
        definition: FieldDefinitionModel, groupUsages: [DeferUsage], in context: ExecutionContext
    ) -> FieldPlan {
        var stream: Result<StreamUsage?, GraphQLError> = .success(nil)
        var streamedItems: FieldPlan? = nil
        if fieldNodes[0].directives.contains(where: { $0.name.value == "stream" }) {
            stream = Result { () throws(GraphQLError) in try context.streamUsage(of: fieldNodes[0]) }
            if case .success(_?) = stream {
                streamedItems = FieldPlan(
                    responseKey: responseKey, fieldNodes: fieldNodes, parentType: parentType, definition: definition,
                    context: context,
                    incremental: IncrementalField(
                        deferUsages: fieldNodes.map { _ in nil }, groupUsages: [], stream: .success(nil),
                        streamedItems: nil))
            }
        }
        return FieldPlan(
            responseKey: responseKey, fieldNodes: fieldNodes, parentType: parentType, definition: definition,
            context: context,
            incremental: IncrementalField(
                deferUsages: deferUsages, groupUsages: groupUsages, stream: stream, streamedItems: streamedItems))
    }
}
