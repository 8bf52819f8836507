import Synchronization

/// The `RequestReport` of an execution that finishes after its request was answered (a 504 at
/// the deadline). What it did still happened (the upstream requests it had on the wire, their
/// quota), so the answer's log line and metrics wait for it instead of counting nothing; an
/// answer that cannot wait (a shutdown's 503, logged before the log is flushed) `decline`s it,
/// and the report then only adds to the metrics. Delivered once; thread-safe.
final class LateReport: Sendable {
    private enum Taker {
        case none
        case handler(@Sendable (RequestReport) -> Void)
        case declined(@Sendable (RequestReport) -> Void)
    }
    private struct State {
        var report: RequestReport?
        var taker: Taker = .none
    }
    private let state = Mutex(State())

    /// The execution's report: to whoever takes it, else kept for one to come.
    func deliver(_ report: RequestReport) {
        let taker = state.withLock { state -> Taker in
            if case .none = state.taker { state.report = report }
            return state.taker
        }
        switch taker {
        case .none: break
        case .handler(let handler), .declined(let handler): handler(report)
        }
    }

    /// Runs `handler` with the report once it is delivered (now, when it was already).
    func whenDelivered(_ handler: @escaping @Sendable (RequestReport) -> Void) {
        if let report = take(.handler(handler)) { handler(report) }
    }

    /// Nobody waits for the report: the one delivered already, else nil, and a later one goes
    /// to `late`.
    func decline(sendingLateTo late: @escaping @Sendable (RequestReport) -> Void) -> RequestReport? {
        take(.declined(late))
    }

    private func take(_ taker: Taker) -> RequestReport? {
        state.withLock { state in
            if let report = state.report { return report }
            state.taker = taker
            return nil
        }
    }
}

/// What an answer's log line and metrics count: the report at hand, or one still to come.
enum AnswerReport: Sendable {
    case now(RequestReport)
    case late(LateReport)
}
