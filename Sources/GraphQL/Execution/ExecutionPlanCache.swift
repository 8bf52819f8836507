import Synchronization

/// The execution plans of one document, kept across its executions: a server answering the
/// same query again skips CollectFields, field lookups, argument coercion and resolver
/// choice (`SelectionPlan`), which otherwise cost about as much as executing a small query
/// over cached data.
///
/// A plan depends on the schema, the resolvers, the operation and the coerced variable
/// values, so entries are keyed by operation and variables, and a cache belongs to one
/// document executed against one schema with one set of resolvers (a server's fixed ones):
/// never share it across schemas or resolver sets. Bounded: `capacity` plans per document
/// (distinct variable values), the oldest dropped first; the document cache above bounds
/// the documents.
public final class ExecutionPlanCache: Sendable {
    /// Plans kept per document.
    public static let capacity = 8

    private struct Entry {
        let operationName: String?
        let operationStart: Int
        let variables: JSONObject
        let plan: SelectionPlan
    }

    private let entries = Mutex<[Entry]>([])

    public init() {}

    /// The number of plans held (for tests).
    public var count: Int { entries.withLock { $0.count } }

    func plan(for operation: OperationDefinition, variables: JSONObject) -> SelectionPlan? {
        let name = operation.name?.value
        return entries.withLock { entries in
            entries.first {
                $0.operationStart == operation.loc.start && $0.operationName == name
                    && $0.variables.isIdentical(to: variables)
            }?.plan
        }
    }

    func insert(_ plan: SelectionPlan, for operation: OperationDefinition, variables: JSONObject) {
        let entry = Entry(
            operationName: operation.name?.value, operationStart: operation.loc.start, variables: variables, plan: plan)
        entries.withLock { entries in
            let present = entries.contains {
                $0.operationStart == entry.operationStart && $0.operationName == entry.operationName
                    && $0.variables.isIdentical(to: variables)
            }
            guard !present else { return }  // another execution raced us to it
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(entry)
        }
    }
}
