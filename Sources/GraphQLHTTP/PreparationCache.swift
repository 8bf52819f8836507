import GraphQL
import Synchronization

/// The work done on a request before execution, kept by the exact bytes it was done on, so
/// that a repeat (the common case for an app's fixed set of operations) skips it: parsed and
/// validated documents by query text (`DocumentCache`), and a POST body's parameters with
/// their document by body (`BodyCache`). Exact bytes: texts that differ only in Unicode
/// normalization are different documents, whose string values differ.
///
/// Bounded: once full, the oldest entry is dropped for each new one. Only successes are kept;
/// a rejected request is prepared again each time, so the cache cannot be filled by garbage
/// that never validates more cheaply than by valid documents.
final class PreparationCache<Value: Sendable>: Sendable {
    private struct State {
        var values: [ExactStringKey: Value] = [:]
        /// Insertion order, for eviction; `head` is the index of the oldest live key.
        var order: [ExactStringKey] = []
        var head = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// Keeps at most `capacity` entries; 0 keeps none.
    init(capacity: Int) {
        self.capacity = capacity
    }

    func value(for key: ExactStringKey) -> Value? {
        guard capacity > 0 else { return nil }
        return state.withLock { $0.values[key] }
    }

    func insert(_ value: Value, for key: ExactStringKey) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.values[key] == nil else { return }
            if state.values.count >= capacity, state.head < state.order.count {
                state.values[state.order[state.head]] = nil
                state.head += 1
                if state.head > capacity {
                    state.order.removeFirst(state.head)
                    state.head = 0
                }
            }
            state.values[key] = value
            state.order.append(key)
        }
    }

    var count: Int { state.withLock { $0.values.count } }
}

/// Prepared documents by query text.
typealias DocumentCache = PreparationCache<PreparedDocument>

extension PreparationCache where Value == PreparedDocument {
    func document(for query: String) -> PreparedDocument? {
        value(for: ExactStringKey(query))
    }

    func insert(_ document: PreparedDocument, for query: String) {
        insert(document, for: ExactStringKey(query))
    }
}

/// A request's parameters and their prepared document.
struct PreparedRequest: Sendable {
    let parameters: GraphQLRequestParameters
    let prepared: PreparedDocument
    /// Preparing it registered an APQ document: a repeat must do so again (the store may
    /// have dropped it since), so it is not kept by body.
    var registers = false
}

/// POST bodies' parameters and documents, by the body's bytes: a repeated body skips reading
/// its JSON as well as preparing its query.
typealias BodyCache = PreparationCache<PreparedRequest>

extension PreparationCache where Value == PreparedRequest {
    /// Longer bodies are not kept, so the cache stays within `capacity` × 8 KiB of keys (plus
    /// their parameters).
    static var maxBodyBytes: Int { 8 << 10 }
}
