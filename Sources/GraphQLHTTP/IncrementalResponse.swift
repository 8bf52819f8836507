import GraphQL
import HTTPServer
import Synchronization

/// One incremental execution on its way to a `multipart/mixed` body: takes the payloads the
/// execution delivers, tells the waiting handler how the answer starts, writes every later
/// payload to the body stream as one part the moment it arrives, and ends the stream exactly
/// once: after the last payload, at the request deadline, when the parts would take the body
/// over `maxResponseBytes`, or when the client (or a shutdown) abandons it, which cancels the
/// execution.
final class IncrementalResponse: Sendable {
    /// How the answer starts, known with the first payload.
    enum Start: Sendable {
        /// Nothing was deferred or streamed (or a request error): one ordinary response.
        case complete(GraphQLHTTPIncrementalPart)
        /// The initial payload is the stream's first part: answer 200 with `stream`.
        case streaming
        /// The deadline passed before the initial payload: 504.
        case timedOut
        /// The caller was cancelled first (or the execution gave nothing): the server answered.
        case cancelled
    }

    /// How a streamed answer ended, for its log line and metrics.
    enum End: Sendable, Equatable {
        case completed
        case timedOut
        case abandoned(AbandonReason)
    }

    let format: IncrementalDeliveryFormat
    let stream = HTTPBodyStream()
    private let timeoutMs: Int
    private let maxResponseBytes: Int
    private let operationLocations: [SourceLocation]
    private let scheduler: DeadlineScheduler
    /// Hears the end of a streamed answer (not of one that never streamed), once, with what the
    /// request cost: the last part's report when the stream ended with it, else what the
    /// execution returned once it stopped; and when the stream ended for the client (its
    /// answer's duration, however long the stopped execution took to return its report).
    private let ended: @Sendable (End, RequestReport, ContinuousClock.Instant) -> Void
    /// Hears each last part this type writes itself (a deadline's or the size limit's).
    private let wroteOwnPart: @Sendable () -> Void

    private struct State {
        var start: Start?
        var waiter: CheckedContinuation<Start, Never>?
        /// Notices announced and not completed yet, in announcement order.
        var pending: [PendingNotice] = []
        var report = RequestReport()
        /// Bytes of the body written so far, each part's delimiter and header included.
        var written = 0
        var end: End?
        /// When `end` was decided.
        var endedAt: ContinuousClock.Instant?
        /// An end decided before the last part, reported once the execution has returned.
        var endUnreported = false
        /// What the execution returned (the request's whole cost), once it has.
        var finalReport: RequestReport?
        var execution: Task<Void, Never>?
        var deadlineToken: Int?
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - timeoutMs: the deadline of the whole answer, first part to last; 0 = none.
    ///   - maxResponseBytes: the most bytes the whole body may take, framing and the last part
    ///     included; 0 = no limit. A part is written only when the body stays within it with
    ///     room for a last part that stops the stream (a deadline's or the size limit's). A
    ///     first part that does not fit is answered as one ordinary response, `data: null` and
    ///     a `RESPONSE_TOO_LARGE` error; a later part that does not fit is not written: a last
    ///     part completes what is pending with that error instead, and the execution is
    ///     stopped. Either error is at `operationLocations`.
    init(
        format: IncrementalDeliveryFormat, timeoutMs: Int, maxResponseBytes: Int = 0,
        operationLocations: [SourceLocation] = [], scheduler: DeadlineScheduler,
        wroteOwnPart: @escaping @Sendable () -> Void = {},
        ended: @escaping @Sendable (End, RequestReport, ContinuousClock.Instant) -> Void
    ) {
        self.wroteOwnPart = wroteOwnPart
        self.format = format
        self.timeoutMs = timeoutMs
        self.maxResponseBytes = maxResponseBytes
        self.operationLocations = operationLocations
        self.scheduler = scheduler
        self.ended = ended
    }

    /// Starts `execution` in a task of its own, under the deadline; the stream's abandonment
    /// stops it. `execution` returns what the request cost in all, once it has stopped.
    func run(_ execution: @escaping @Sendable (IncrementalResponse) async -> RequestReport) {
        let task = Task { [self] in
            executionEnded(await execution(self))
        }
        let token = timeoutMs > 0 ? scheduler.schedule(afterMs: timeoutMs) { [self] in deadlinePassed() } : nil
        let over = state.withLock { state -> Bool in
            state.execution = task
            state.deadlineToken = token
            if case .complete? = state.start { return true }
            return state.end != nil
        }
        // Decided before the task was known (a quick answer, or a cancellation): nothing more is
        // wanted from it (cancelling one that has delivered everything changes nothing).
        if over {
            cancelDeadline()
            task.cancel()
        }
        stream.whenAbandoned { [self] reason in finish(.abandoned(reason), afterLastPart: false) }
    }

    /// Waits for the first payload (or the deadline, or the caller's cancellation).
    func start() async -> Start {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Start, Never>) in
                let now = state.withLock { state -> Start? in
                    guard let start = state.start else {
                        state.waiter = continuation
                        return nil
                    }
                    return start
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            decideStart(.cancelled)
        }
    }

    /// The execution's `deliver`: false once nobody reads the answer.
    func deliver(_ part: GraphQLHTTPIncrementalPart) -> Bool {
        enum Step {
            case stop
            case decided(Start)
            case wrote(last: Bool)
            case tooLarge(Start?)
        }
        let step = state.withLock { state -> Step in
            guard state.end == nil else { return .stop }
            state.report = part.report
            if state.start == nil, case .complete = part.payload {
                state.start = .complete(part)
                return .decided(.complete(part))
            }
            if case .cancelled? = state.start { return .stop }
            if case .timedOut? = state.start { return .stop }
            if case .complete? = state.start { return .stop }
            let json = format.json(part)
            let framed =
                MultipartMixed.partHead.count + json.count + (part.isLast ? MultipartMixed.closeDelimiter.count : 0)
            let pendingAfter = Self.pending(state.pending, after: part.payload)
            if maxResponseBytes > 0 {
                // Room is kept for the last part that would stop the stream after this one (a
                // deadline's or the size limit's), so that the whole body, framing included,
                // never passes the limit.
                let needed = state.written + framed + (part.isLast ? 0 : stopPartBound(pending: pendingAfter))
                if needed > maxResponseBytes {
                    return .tooLarge(stopForSize(part, bytes: state.written + framed, in: &state))
                }
            }
            state.written += framed
            state.pending = pendingAfter
            var bytes = MultipartMixed.part(json)
            if part.isLast { bytes += MultipartMixed.closeDelimiter }
            // Under the lock, so that parts go out in the order they were delivered.
            guard stream.write(bytes) else { return .stop }
            if part.isLast { stream.finish() }
            guard state.start == nil else { return .wrote(last: part.isLast) }
            state.start = .streaming
            return .decided(.streaming)
        }
        switch step {
        case .stop:
            return false
        case .decided(let start):
            resumeWaiter(with: start)
            if case .complete = start {
                cancelDeadline()
                return true
            }
            if case .streaming = start, part.isLast { finish(.completed, afterLastPart: true) }
            return true
        case .wrote(let last):
            if last { finish(.completed, afterLastPart: true) }
            return true
        case .tooLarge(let start?):
            resumeWaiter(with: start)
            cancelDeadline()
            return false
        case .tooLarge(nil):
            finish(.completed, afterLastPart: false)
            return false
        }
    }

    /// `part` would take the body to `bytes`, over `maxResponseBytes`. Before the stream
    /// started: the answer becomes one ordinary response, `data: null` and the error (returned,
    /// for the waiting handler). Once streaming: a last part completes every pending notice
    /// with the error, the stream ends (nil). Under the lock.
    private func stopForSize(_ part: GraphQLHTTPIncrementalPart, bytes: Int, in state: inout State) -> Start? {
        let started = state.start != nil
        let error = sizeError(bytes: bytes, started: started)
        guard started else {
            let answer = GraphQLHTTPIncrementalPart(
                payload: .complete(ExecutionResult(data: .null, errors: [error])), extensions: part.extensions,
                report: part.report)
            state.start = .complete(answer)
            return .complete(answer)
        }
        stream.write(
            MultipartMixed.part(format.deadlinePayload(pending: state.pending, error: error))
                + MultipartMixed.closeDelimiter)
        stream.finish()
        wroteOwnPart()
        return nil
    }

    /// The notices pending once `payload` is written after those `pending` now.
    private static func pending(_ pending: [PendingNotice], after payload: IncrementalPayload) -> [PendingNotice] {
        switch payload {
        case .complete: return pending
        case .initial(let initial): return pending + initial.pending
        case .subsequent(let subsequent):
            guard !subsequent.pending.isEmpty || !subsequent.completed.isEmpty else { return pending }
            let done = Set(subsequent.completed.map(\.id))
            return (pending + subsequent.pending).filter { !done.contains($0.id) }
        }
    }

    /// The most bytes a last part that stops the stream with `pending` notices can take, framing
    /// and close delimiter included: the longer of the deadline's and the size limit's (its
    /// byte count written as the largest integer).
    private func stopPartBound(pending: [PendingNotice]) -> Int {
        let errors = [
            GraphQLHTTPError.requestTimeout(ms: timeoutMs).graphQLError, sizeError(bytes: .max, started: true),
        ]
        let longest = errors.map { format.deadlinePayload(pending: pending, error: $0).count }.max() ?? 0
        return MultipartMixed.partHead.count + longest + MultipartMixed.closeDelimiter.count
    }

    /// The size limit's error, for a body that would reach `bytes`.
    private func sizeError(bytes: Int, started: Bool) -> GraphQLError {
        let unsent = started ? "the rest of its data is not sent" : "none of its data is sent"
        return GraphQLError(
            "The response is larger than the limit of \(maxResponseBytes) bytes (\(bytes) with its next part); "
                + "it was stopped and \(unsent). Select fewer fields or smaller lists.",
            locations: operationLocations,
            extensions: JSONObject([
                ("code", .string(GraphQLHTTPError.responseTooLargeCode)), ("maximum", .int(maxResponseBytes)),
                ("actual", .int(bytes)),
            ]))
    }

    /// The request deadline: 504 if nothing was sent yet, else a last part that completes what
    /// is pending with a `REQUEST_TIMEOUT` error.
    private func deadlinePassed() {
        let streaming = state.withLock { state -> Bool? in
            guard state.end == nil else { return nil }
            guard state.start != nil else { return false }
            if case .streaming? = state.start {
                let error = GraphQLHTTPError.requestTimeout(ms: timeoutMs).graphQLError
                stream.write(
                    MultipartMixed.part(format.deadlinePayload(pending: state.pending, error: error))
                        + MultipartMixed.closeDelimiter)
                stream.finish()
                wroteOwnPart()
                return true
            }
            return nil
        }
        switch streaming {
        case nil: return
        case false?: decideStart(.timedOut)
        case true?: finish(.timedOut, afterLastPart: false)
        }
    }

    /// The execution returned `report`. A stream that got no last payload (its execution was
    /// cancelled) is closed properly; an end that waited for the execution is reported now.
    private func executionEnded(_ report: RequestReport) {
        let (closing, unreported) = state.withLock { state -> (Bool, (End, ContinuousClock.Instant)?) in
            state.finalReport = report
            if state.endUnreported, let end = state.end {
                state.endUnreported = false
                return (false, (end, state.endedAt ?? .now))
            }
            guard state.end == nil, case .streaming? = state.start else { return (false, nil) }
            stream.write(MultipartMixed.closeDelimiter)
            stream.finish()
            return (true, nil)
        }
        decideStart(.cancelled)  // no effect once a start was decided
        if let (end, at) = unreported { ended(end, report, at) }
        if closing { finish(.completed, afterLastPart: false) }
    }

    /// Decides the start as `start` unless it is decided already; the execution is then of no
    /// further use.
    private func decideStart(_ start: Start) {
        let (decided, task, token) = state.withLock { state -> (Bool, Task<Void, Never>?, Int?) in
            guard state.start == nil else { return (false, nil, nil) }
            state.start = start
            state.end = .completed  // nothing will be streamed
            return (true, state.execution, state.deadlineToken)
        }
        guard decided else { return }
        task?.cancel()
        if let token { scheduler.cancel(token) }
        resumeWaiter(with: start)
    }

    private func resumeWaiter(with start: Start) {
        let waiter = state.withLock { state -> CheckedContinuation<Start, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: start)
    }

    private func cancelDeadline() {
        let token = state.withLock { state -> Int? in
            defer { state.deadlineToken = nil }
            return state.deadlineToken
        }
        if let token { scheduler.cancel(token) }
    }

    /// Ends a streamed answer once: cancels the execution and the deadline, reports the end.
    /// The last part carries the whole cost; an end before it (deadline, size limit, client
    /// gone) is reported when the execution has stopped, with what it returned, so that the
    /// upstream requests on the wire when the stream ended are on its log line and in the metrics.
    private func finish(_ end: End, afterLastPart: Bool) {
        let (first, task, token, report) = state.withLock {
            state -> (Bool, Task<Void, Never>?, Int?, RequestReport?) in
            guard state.end == nil else { return (false, nil, nil, nil) }
            state.end = end
            state.endedAt = .now
            let report = afterLastPart ? state.report : state.finalReport
            if report == nil { state.endUnreported = true }
            return (true, state.execution, state.deadlineToken, report)
        }
        guard first else { return }
        if !afterLastPart { task?.cancel() }
        if let token { scheduler.cancel(token) }
        if let report { ended(end, report, .now) }
    }
}
