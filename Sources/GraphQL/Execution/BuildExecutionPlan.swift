/// The fields of one object split by the deferred fragments that select them (graphql-js 17
/// `buildExecutionPlan`; incremental delivery RFC "Execution Plan"): `fields` run in the
/// payload being built now, each entry of `deferredGroups` is one execution group, the fields
/// that the same set of deferred fragments (and nothing less deferred) selects at this object.
struct ExecutionPlanSplit {
    var fields: [CollectedField] = []
    var deferredGroups: [(usages: [DeferUsage], fields: [CollectedField])] = []
}

/// Splits `collected` for an object completed inside the execution group of `parentUsages`
/// (empty: the initial payload or a streamed item). A field goes with the group of its
/// filtered usage set: empty when some node of it is not deferred, else the usages of its
/// nodes without those whose ancestor is among them (a nested `@defer` adds nothing to a field
/// its enclosing fragment delivers anyway). Fields whose set is `parentUsages` stay here.
/// Groups keep the order of their first field; fields keep collection order.
func buildExecutionPlan(_ collected: [CollectedField], parentUsages: [DeferUsage]) -> ExecutionPlanSplit {
    var split = ExecutionPlanSplit()
    for field in collected {
        let usages = filteredDeferUsageSet(field.deferUsages)
        if isSameUsageSet(usages, parentUsages) {
            split.fields.append(field)
        } else if let index = split.deferredGroups.firstIndex(where: { isSameUsageSet($0.usages, usages) }) {
            split.deferredGroups[index].fields.append(field)
        } else {
            split.deferredGroups.append((usages, [field]))
        }
    }
    return split
}

/// graphql-js 17 `getFilteredDeferUsageSet`: empty when a node is not deferred; else the
/// distinct usages of the nodes, minus those with an ancestor in the set, in first-seen order.
private func filteredDeferUsageSet(_ usages: [DeferUsage?]) -> [DeferUsage] {
    var set: [DeferUsage] = []
    for usage in usages {
        guard let usage else { return [] }
        if !set.contains(where: { $0 === usage }) { set.append(usage) }
    }
    return set.filter { !$0.hasAncestor(in: set) }
}
