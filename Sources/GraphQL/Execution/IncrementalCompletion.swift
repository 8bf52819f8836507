// The two places where the synchronous walk leaves work for later payloads (incremental
// delivery RFC "Executing Selection Sets" and "Completing List Values"; graphql-js 17
// `collectExecutionGroups` and `completeIterableValue`). Everything else is ordinary
// execution: the same CollectFields plans, CompleteValue, null propagation and holes.

extension ExecutionContext {
    /// ExecuteSelectionSet for an object whose plan starts `@defer` usages or defers execution
    /// groups: the object's deferred fragment records are added to the walk's map while its
    /// fields execute, and each deferred group is registered at the object's offset, after the
    /// records its fields registered (so a null over the object drops them all).
    func executeDeferringSelectionSet(
        _ plan: SelectionPlan, _ incremental: IncrementalSelection, source: FieldValue, path: ResponsePath,
        out: ResponseWriter
    ) throws(FieldFailure) {
        guard let walk = out.incremental else {
            return try executeSelectionSet(plan, source: source, path: path, out: out)
        }
        let start = out.buffer.count
        let enclosing = walk.deferMap
        let components = path.components
        let deferMap =
            incremental.newDeferUsages.isEmpty
            ? enclosing : enclosing.adding(incremental.newDeferUsages, at: components)
        walk.deferMap = deferMap
        defer { walk.deferMap = enclosing }
        try executeSelectionSet(plan, source: source, path: path, out: out)
        for group in incremental.deferredGroups {
            let fragments = group.usages.compactMap { deferMap[$0] }
            guard fragments.count == group.usages.count else { continue }  // unreachable: usages come from the map
            walk.register(
                .executionGroup(
                    PendingExecutionGroup(
                        fragments: fragments, path: components, source: source, plan: group.plan, deferMap: deferMap)),
                at: start)
        }
    }

    /// A list field with `@stream`: the first `initialCount` items are completed here as usual,
    /// the rest become a stream record registered at the list's offset (none when nothing is
    /// left). Its items are completed later, with the field's stream plan (no `@defer` usages).
    /// - Throws: `FieldFailure` as `completeListValue` does.
    func completeStreamedListValue(
        _ stream: StreamUsage, _ itemShape: CompletionShape, field: FieldPlan, value: FieldValue, path: ResponsePath,
        out: ResponseWriter
    ) throws(FieldFailure) {
        let items: [FieldValue]
        switch value {
        case .json(.array(let array)): items = array.map { .json($0) }
        case .list(let list): items = list
        default:
            throw failure(
                "Expected Iterable, but did not find one for field \"\(field.parentType).\(field.fieldName)\".", field,
                path)
        }
        let start = out.buffer.count
        let walk = out.incremental
        let itemPlan = field.incremental?.streamedItems
        // Without a walk to register in (never in incremental execution), nothing is streamed.
        let initial = walk == nil || itemPlan == nil ? items.count : min(stream.initialCount, items.count)
        out.buffer.append(UInt8(ascii: "["))
        for index in 0..<initial {
            if index > 0 { out.buffer.append(UInt8(ascii: ",")) }
            try completeItem(items[index], itemShape, at: index, field: field, path: path, out: out)
        }
        out.buffer.append(UInt8(ascii: "]"))
        guard initial < items.count, let walk, let itemPlan else { return }
        walk.register(
            .stream(
                StreamRecord(
                    path: path.components, label: stream.label, items: Array(items[initial...]), startIndex: initial,
                    itemShape: itemShape, itemPlan: itemPlan)), at: start)
    }
}
