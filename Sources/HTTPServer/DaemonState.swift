import CMicroHTTPD
import Synchronization

/// What libmicrohttpd's callbacks share for one daemon: the handler, the limits, and the
/// registry of requests in flight that shutdown needs. Passed to C as the callbacks' `cls`,
/// retained from start until after `MHD_stop_daemon` returns.
final class DaemonState: Sendable {
    let responder: HTTPServer.Responder
    let configuration: HTTPServer.Configuration
    /// Deadlines and the per-address limit of every connection.
    let watchdog: ConnectionWatchdog
    /// Answers suspended requests at their instants: the request deadline's 503, delayed answers.
    let deadlines = DeadlineQueue()

    private struct Registry {
        /// Requests whose handler answers later and has not answered yet: suspended connections,
        /// and any whose work is still in its synchronous start.
        var suspended: [ObjectIdentifier: RequestContext] = [:]
        /// Streamed bodies being sent: a shutdown past its grace abandons them, since
        /// `MHD_stop_daemon` must not find their connections suspended between two writes.
        var streams: [ObjectIdentifier: HTTPBodyStream] = [:]
        /// Shutdown answered every suspended request; new ones are answered 503 at once.
        var forced = false
    }

    private let registry = Mutex(Registry())
    /// Requests between their URI callback and their completion callback. Atomics, not the
    /// registry: both polling threads touch them for every request, and a request answered now
    /// never takes the registry's lock at all.
    private let active = Atomic<Int>(0)
    /// Shutdown began: answers carry `Connection: close`.
    private let draining = Atomic<Bool>(false)
    /// `Registry.forced`, readable without the lock.
    private let forcedFlag = Atomic<Bool>(false)
    /// Resumes between a successful `RequestContext.answer` and the return of
    /// `MHD_resume_connection`. Shutdown waits for zero before `MHD_stop_daemon`, which must never
    /// see a suspended connection.
    private let resumesInProgress = Atomic<Int>(0)
    /// Handler tasks not yet returned, answered or not: shutdown waits for them (within a bound)
    /// so that what they log and count about their answer is written before the process ends.
    private let handlersRunning = Atomic<Int>(0)

    init(responder: @escaping HTTPServer.Responder, configuration: HTTPServer.Configuration) {
        self.responder = responder
        self.configuration = configuration
        self.watchdog = ConnectionWatchdog(
            limits: ConnectionWatchdog.Limits(
                timeouts: ConnectionDeadlines.Timeouts(
                    headerMs: max(0, configuration.headerTimeoutMs), bodyMs: max(0, configuration.bodyTimeoutMs),
                    idleMs: max(0, configuration.idleTimeoutMs)),
                maxConnectionsPerAddress: max(0, configuration.maxConnectionsPerAddress),
                limitLoopback: configuration.limitLoopbackConnections))
    }

    var activeRequests: Int { active.load(ordering: .acquiring) }
    var isDraining: Bool { draining.load(ordering: .relaxed) }
    var hasResumesInProgress: Bool { resumesInProgress.load(ordering: .sequentiallyConsistent) > 0 }
    var runningHandlers: Int { handlersRunning.load(ordering: .acquiring) }

    func requestStarted() {
        active.add(1, ordering: .relaxed)
    }

    func requestCompleted(_ context: RequestContext) {
        if context.isRegistered {
            registry.withLock { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(context)) }
        }
        active.subtract(1, ordering: .releasing)
    }

    /// A resume is about to be made from outside the registry (a streamed body's next write).
    func resumeStarted() {
        resumesInProgress.add(1, ordering: .sequentiallyConsistent)
    }

    func resumeEnded() {
        resumesInProgress.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// A streamed body was queued: kept until libmicrohttpd releases it, and abandoned at once
    /// when a shutdown already abandoned the others.
    func streamQueued(_ stream: HTTPBodyStream) {
        let accepted = registry.withLock { registry in
            guard !registry.forced else { return false }
            registry.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        if !accepted { stream.abandon(.shutdown) }
    }

    func streamReleased(_ stream: HTTPBodyStream) {
        registry.withLock { _ = $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
        stream.released()
    }

    func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }

    /// Runs the handler for a request whose body is in, from inside the access handler call.
    ///
    /// The responder runs on the calling (polling) thread: a `.now` answer is queued in this
    /// call, with no task at all. A `.later` answer's work is a task of its own:
    ///
    /// The work starts on the calling (polling) thread with `Task.immediate` and runs there
    /// until it first suspends: a handler that never suspends (a cached GraphQL document over
    /// static data, `/healthz`) is answered in this same call, with no thread hop, no
    /// suspend/resume round trip through libmicrohttpd and no deadline timer; that doubled
    /// the requests per second of bench/http-gateway.sh. A handler that suspends continues on
    /// Swift's cooperative pool while the connection is suspended, under the deadline timer.
    /// Its synchronous start delays the other connections of this polling thread, so handlers
    /// should suspend (or finish) quickly.
    /// - Returns: the response to queue now, or nil when the connection was suspended.
    func handle(_ context: RequestContext, request: HTTPRequest) -> HTTPResponse? {
        guard !forcedFlag.load(ordering: .acquiring) else { return refuseAfterShutdown(context, request: request) }
        switch responder(request) {
        case .now(let response):
            // Queued by this very call: nothing for a shutdown or a deadline to find or answer.
            _ = context.answer(response, fromHandler: true)
            return settle(context, handlerTask: nil)
        case .delayed(let response, let delay):
            guard register(context) else { return refuseAfterShutdown(context, request: request) }
            return suspend(context, answering: response, after: delay)
        case .later(let work):
            // Registered before the work starts, so that a shutdown finds it from then on.
            guard register(context) else { return refuseAfterShutdown(context, request: request) }
            handlersRunning.add(1, ordering: .acquiringAndReleasing)
            let handlerTask = Task.immediate {
                let response = await work()
                self.answer(context, with: response, fromHandler: true)
                self.handlersRunning.subtract(1, ordering: .acquiringAndReleasing)
            }
            return settle(context, handlerTask: handlerTask)
        }
    }

    /// Puts a request answered later in the registry a shutdown answers; false once it has.
    private func register(_ context: RequestContext) -> Bool {
        let accepted = registry.withLock { registry in
            guard !registry.forced else { return false }
            registry.suspended[ObjectIdentifier(context)] = context
            return true
        }
        if accepted { context.markRegistered() }
        return accepted
    }

    /// Suspends the connection and answers `response` once `delay` has passed, or the request
    /// deadline's 503 if that comes first; a client that leaves meanwhile is answered 499.
    private func suspend(_ context: RequestContext, answering response: HTTPResponse, after delay: Duration)
        -> HTTPResponse?
    {
        guard case .suspend = context.suspendUnlessAnswered() else {
            // Answered meanwhile (a shutdown): its response is queued now.
            return settle(context, handlerTask: nil)
        }
        let now = ConnectionWatchdog.now()
        let (seconds, attoseconds) = max(delay, .zero).components
        let delayNs = Self.saturating(UInt64(seconds), times: 1_000_000_000, plus: UInt64(attoseconds / 1_000_000_000))
        let timeoutMs = configuration.requestTimeoutMs
        let timeoutNs = Self.saturating(UInt64(max(0, timeoutMs)), times: 1_000_000, plus: 0)
        let ticket =
            timeoutMs > 0 && timeoutNs <= delayNs
            ? deadlines.schedule(at: Self.saturating(now, times: 1, plus: timeoutNs)) {
                self.answer(context, with: .deadlineExceeded(timeoutMs: timeoutMs), reason: .deadline)
            }
            : deadlines.schedule(at: Self.saturating(now, times: 1, plus: delayNs)) {
                self.answer(context, with: response, fromHandler: true)
            }
        context.attach(handlerTask: nil, deadline: ScheduledAnswer(queue: deadlines, ticket: ticket)) {
            self.answer(context, with: .clientClosedRequest, reason: .clientClosed)
        }
        return nil
    }

    /// `value * factor + addend` in nanoseconds, at most `UInt64.max` (never): an absurd timeout
    /// or delay must not wrap around to an instant in the past.
    private static func saturating(_ value: UInt64, times factor: UInt64, plus addend: UInt64) -> UInt64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        let (sum, carry) = product.addingReportingOverflow(addend)
        return overflow || carry ? .max : sum
    }

    /// 503 without calling the responder; `Configuration.serverAnswered` hears of it, since no
    /// handler will log it.
    private func refuseAfterShutdown(_ context: RequestContext, request: HTTPRequest) -> HTTPResponse? {
        answer(context, with: configuration.shutdownResponse, reason: .shutdown)
        configuration.serverAnswered?(request, configuration.shutdownResponse)
        return settle(context, handlerTask: nil)
    }

    /// After the handler's synchronous start: the response when it is answered already, else
    /// suspends the connection and starts the deadline timer.
    private func settle(_ context: RequestContext, handlerTask: Task<Void, Never>?) -> HTTPResponse? {
        switch context.suspendUnlessAnswered() {
        case .respond(let response):
            if context.isRegistered {
                registry.withLock { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(context)) }
            }
            handlerTask?.cancel()  // finished, or answered by a shutdown meanwhile
            return response
        case .suspend:
            guard let handlerTask else { return nil }  // unreachable: the answer above came first
            let timeoutMs = configuration.requestTimeoutMs
            let deadline =
                timeoutMs <= 0
                ? nil
                : ScheduledAnswer(
                    queue: deadlines,
                    ticket: deadlines.schedule(
                        at: Self.saturating(
                            ConnectionWatchdog.now(), times: 1,
                            plus: Self.saturating(UInt64(timeoutMs), times: 1_000_000, plus: 0))
                    ) {
                        self.answer(context, with: .deadlineExceeded(timeoutMs: timeoutMs), reason: .deadline)
                    })
            // The client may leave while the handler works: libmicrohttpd does not watch a
            // suspended connection, the watchdog does, and the handler's task is then cancelled
            // so that it stops its work (upstream calls, for a gateway).
            context.attach(handlerTask: handlerTask, deadline: deadline) {
                self.answer(context, with: .clientClosedRequest, reason: .clientClosed)
            }
            return nil
        }
    }

    /// Gives a handled request its response, unless it was answered already, and resumes its
    /// connection if it is suspended (else the access handler call still running queues it).
    /// Returns whether this call answered it; if so, and the answer is not the handler's, the
    /// request's `abandonment` records `reason` and the handler's task is cancelled.
    @discardableResult
    func answer(
        _ context: RequestContext, with response: HTTPResponse, fromHandler: Bool = false, reason: AbandonReason? = nil
    ) -> Bool {
        resumesInProgress.add(1, ordering: .sequentiallyConsistent)
        defer { resumesInProgress.subtract(1, ordering: .sequentiallyConsistent) }
        switch context.answer(response, fromHandler: fromHandler, reason: reason) {
        case .ignored:
            return false
        case .none:
            return true  // the access handler call that started the handler queues it
        case .resume:
            registry.withLock { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(context)) }
            MHD_resume_connection(context.connection.raw)
            return true
        }
    }

    /// Answers every request still waiting for its handler with `response`, and abandons every
    /// streamed body still being sent; requests suspended and bodies queued later are treated
    /// the same way as soon as they are.
    /// - Returns: how many requests and streams it answered or abandoned.
    @discardableResult
    func answerAllSuspended(with response: HTTPResponse) -> Int {
        let (waiting, streams) = registry.withLock { registry in
            registry.forced = true
            forcedFlag.store(true, ordering: .releasing)
            return (Array(registry.suspended.values), Array(registry.streams.values))
        }
        for context in waiting {
            answer(context, with: response, reason: .shutdown)
        }
        for stream in streams {
            stream.abandon(.shutdown)
        }
        return waiting.count + streams.count
    }
}
