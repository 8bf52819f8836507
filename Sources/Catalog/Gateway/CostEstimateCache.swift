import GraphQL
import Synchronization

/// The cost estimates of the documents a server keeps prepared, so that a repeat of the same
/// prepared document, operation name and variables is not walked again: `QueryCost.analyze`
/// was 2.4% of a cached 50-album request's CPU, recomputed for the same answer every time.
///
/// An estimate depends on the document, the operation name, the variables, the schema and the
/// cost model; one cache belongs to one gateway (one schema, one model). Documents are told
/// apart by the identity of their `plans` (one per `PreparedDocument`, shared by its copies),
/// held weakly: once the document cache drops a document its entries answer nothing, even
/// if a new document is allocated at the same address. Bounded like the plan cache:
/// `ExecutionPlanCache.capacity` estimates per document (distinct variables) and
/// `documentCapacity` documents, the oldest dropped first. Thread-safe.
final class CostEstimateCache: Sendable {
    /// Documents kept: the HTTP handler's default document cache size.
    static let documentCapacity = 512

    private struct Entry {
        let operationName: String?
        let variables: JSONObject
        let estimate: QueryCost.Estimate
    }

    private struct Slot {
        weak var document: ExecutionPlanCache?
        var entries: [Entry]
    }

    private struct State {
        var slots: [ObjectIdentifier: Slot] = [:]
        /// Documents in the order first estimated, for dropping the oldest.
        var order: [ObjectIdentifier] = []
    }

    private let state = Mutex(State())

    init() {}

    /// The estimates held (for tests).
    var count: Int { state.withLock { $0.slots.values.reduce(0) { $0 + ($1.document == nil ? 0 : $1.entries.count) } } }

    /// The estimate kept for `prepared` with this operation name and these variables, else
    /// `analyze()`'s, which is then kept.
    func estimate(
        prepared: PreparedDocument, operationName: String?, variables: JSONObject,
        analyze: () -> QueryCost.Estimate
    ) -> QueryCost.Estimate {
        let document = prepared.plans
        let id = ObjectIdentifier(document)
        let kept = state.withLock { state -> QueryCost.Estimate? in
            guard let slot = state.slots[id], slot.document === document else { return nil }
            return slot.entries.first {
                $0.operationName == operationName && $0.variables.isIdentical(to: variables)
            }?.estimate
        }
        if let kept { return kept }
        let estimate = analyze()
        let entry = Entry(operationName: operationName, variables: variables, estimate: estimate)
        state.withLock { state in
            if var slot = state.slots[id], slot.document === document {
                let present = slot.entries.contains {
                    $0.operationName == operationName && $0.variables.isIdentical(to: variables)
                }
                guard !present else { return }  // another request raced us to it
                if slot.entries.count >= ExecutionPlanCache.capacity { slot.entries.removeFirst() }
                slot.entries.append(entry)
                state.slots[id] = slot
                return
            }
            // A new document, or a dropped one's address reused: its old entries are not this one's.
            if state.slots[id] == nil {
                if state.order.count >= Self.documentCapacity {
                    state.slots[state.order.removeFirst()] = nil
                }
                state.order.append(id)
            }
            state.slots[id] = Slot(document: document, entries: [entry])
        }
        return estimate
    }
}
