import Synchronization

/// The API routes' answers, kept serialized: the catalog never changes, so a route's answer is
/// a function of the request's path, raw query and `Authorization` header alone (nothing else
/// of the request is read by any route), and a repeat is served from here with no ranking and
/// no JSON building. The gateway's nested queries send the same 150 YouTube searches from every
/// fresh gateway process; building each answer again made DemoUpstream's one work queue a
/// serial tail on the critical path of each.
///
/// Faults are applied around the memo (a fault's answer is never kept), and the request log
/// records every request as before. Bounded by `maxBytes` (bodies plus keys plus a fixed
/// overhead per entry), oldest entry dropped first. Thread-safe.
final class AnswerMemo: Sendable {
    private struct State {
        var answers: [String: DemoResponse] = [:]
        /// Keys in insertion order, oldest first from `start`.
        var order: [String] = []
        var start = 0
        var bytes = 0
    }

    let maxBytes: Int
    private let state = Mutex(State())

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// The memo key of a request: what routes read of it.
    static func key(_ request: DemoRequest) -> String {
        request.path + "?" + request.rawQuery + "\n" + (request.headers["authorization"] ?? "")
    }

    func answer(for key: String) -> DemoResponse? {
        state.withLock { $0.answers[key] }
    }

    /// Keeps `response` under `key` (nothing when it alone is over the bound).
    func keep(_ response: DemoResponse, for key: String) {
        let bytes = Self.size(response, key: key)
        guard bytes <= maxBytes else { return }
        state.withLock { state in
            guard state.answers[key] == nil else { return }
            state.answers[key] = response
            state.order.append(key)
            state.bytes += bytes
            while state.bytes > maxBytes, state.start < state.order.count {
                let oldest = state.order[state.start]
                state.start += 1
                if let dropped = state.answers.removeValue(forKey: oldest) {
                    state.bytes -= Self.size(dropped, key: oldest)
                }
            }
            if state.start > 1024, state.start * 2 > state.order.count {
                state.order.removeFirst(state.start)
                state.start = 0
            }
        }
    }

    /// Answers and bytes held (for tests).
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.answers.count, $0.bytes) } }

    private static func size(_ response: DemoResponse, key: String) -> Int {
        response.body.count + key.utf8.count
            + response.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            + 128
    }
}
