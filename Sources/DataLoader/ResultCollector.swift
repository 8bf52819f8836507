import Synchronization

/// Gathers the answers of one `loadMany` call, slot by slot, and hands the full array to
/// whoever fills the last slot, who then resumes `continuation` (exactly once: every slot is
/// filled exactly once, by the batch or cancellation that removed its waiter).
@usableFromInline
final class ResultCollector<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var results: [Result<Value, any Error>?]
        @usableFromInline var remaining: Int

        @inlinable
        init(results: [Result<Value, any Error>?], remaining: Int) {
            self.results = results
            self.remaining = remaining
        }
    }

    @usableFromInline let continuation: UnsafeContinuation<[Result<Value, any Error>], Never>
    @usableFromInline let state: Mutex<State>

    @inlinable
    init(count: Int, continuation: UnsafeContinuation<[Result<Value, any Error>], Never>) {
        self.continuation = continuation
        self.state = Mutex(State(results: Array(repeating: nil, count: count), remaining: count))
    }

    /// Fills `slot`; returns the complete answer when this was the last empty slot.
    @inlinable
    func fill(_ slot: Int, with result: Result<Value, any Error>) -> [Result<Value, any Error>]? {
        state.withLock { state in
            state.results[slot] = result
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            return state.results.map { $0 ?? .failure(CancellationError()) }
        }
    }
}
