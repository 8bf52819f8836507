import GraphQL
import Synchronization

/// Documents that parsed and validated, by query text (its exact bytes: texts that differ only
/// in Unicode normalization are different documents, whose string values differ), so a repeated query (the common case
/// for an app's fixed set of operations) skips both steps. Bounded: once full, the oldest
/// entry is dropped for each new one. Only successes are kept; a rejected document is
/// prepared again each time, so the cache cannot be filled by garbage that never validates
/// more cheaply than by valid documents.
final class DocumentCache: Sendable {
    private struct State {
        var documents: [ExactStringKey: PreparedDocument] = [:]
        /// Insertion order, for eviction; `head` is the index of the oldest live key.
        var order: [ExactStringKey] = []
        var head = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    func document(for query: String) -> PreparedDocument? {
        guard capacity > 0 else { return nil }
        let key = ExactStringKey(query)
        return state.withLock { $0.documents[key] }
    }

    func insert(_ document: PreparedDocument, for query: String) {
        guard capacity > 0 else { return }
        let key = ExactStringKey(query)
        state.withLock { state in
            guard state.documents[key] == nil else { return }
            if state.documents.count >= capacity, state.head < state.order.count {
                state.documents[state.order[state.head]] = nil
                state.head += 1
                if state.head > capacity {
                    state.order.removeFirst(state.head)
                    state.head = 0
                }
            }
            state.documents[key] = document
            state.order.append(key)
        }
    }

    var count: Int { state.withLock { $0.documents.count } }
}
