import CMicroHTTPD
import Synchronization

/// A libmicrohttpd connection pointer that may cross threads.
///
/// `@unchecked Sendable`: libmicrohttpd allows `MHD_resume_connection` from any thread, and the
/// only other uses are on the connection's own polling thread inside its callbacks.
/// `RequestLifecycle` makes sure a suspended connection is resumed exactly once.
struct ConnectionHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

/// Per-request state shared by libmicrohttpd's callbacks and the handler's tasks; its lifetime is
/// `*con_cls`: retained when the URI is seen, released when libmicrohttpd reports completion.
final class RequestContext: Sendable {
    /// The request target exactly as sent: path and query, still percent-encoded.
    let rawTarget: String
    let connection: ConnectionHandle
    /// The connection's deadlines (nil only if libmicrohttpd gave no socket context).
    let watched: WatchedConnection?
    /// Handed to the handler in its `HTTPRequest`: why the server answered in its place.
    let abandonment = RequestAbandonment()

    private struct Inner {
        var lifecycle: RequestLifecycle
        var body: [UInt8] = []
        /// The request deadline's answer, cancelled once the request is answered.
        var deadline: ScheduledAnswer?
        /// The handler's task, cancelled when the deadline or a shutdown answers first.
        var handlerTask: Task<Void, Never>?
    }

    private let inner: Mutex<Inner>
    /// In `DaemonState`'s registry of requests a shutdown answers: only requests answered later.
    private let registered = Atomic<Bool>(false)

    init(
        rawTarget: String, connection: ConnectionHandle, watched: WatchedConnection? = nil, maxBodyBytes: Int,
        handlerAnswersOversizedBodies: Bool = false
    ) {
        self.rawTarget = rawTarget
        self.connection = connection
        self.watched = watched
        self.inner = Mutex(
            Inner(
                lifecycle: RequestLifecycle(
                    maxBodyBytes: maxBodyBytes, handlerAnswersOversizedBodies: handlerAnswersOversizedBodies)))
    }

    var isRegistered: Bool { registered.load(ordering: .acquiring) }

    func markRegistered() {
        registered.store(true, ordering: .releasing)
    }

    /// The raw query string (after `?`), or empty.
    var rawQuery: Substring {
        // Searched as bytes: a Character search cost a twentieth of a cached answer.
        guard let mark = rawTarget.utf8.firstIndex(of: UInt8(ascii: "?")) else { return "" }
        return rawTarget[rawTarget.utf8.index(after: mark)...]
    }

    /// See `RequestLifecycle.called`; also tells the connection's deadlines when the head, and
    /// then the whole body, is in.
    func called(contentLength: Int?) -> RequestLifecycle.CallAction {
        let (action, headJustIn) = inner.withLock { inner in
            let first = inner.lifecycle.state == .started
            return (inner.lifecycle.called(contentLength: contentLength), first)
        }
        if let watched {
            if headJustIn { watched.headReceived(at: ConnectionWatchdog.now()) }
            if action == .handle || action == .handleOversized { watched.bodyReceived() }
        }
        return action
    }

    func receiveBody(_ chunk: UnsafeRawBufferPointer) {
        inner.withLock { inner in
            if inner.lifecycle.bodyReceived(count: chunk.count) == .append {
                inner.body.append(contentsOf: chunk)
            }
        }
    }

    /// Hands the collected body over (the context keeps none).
    func takeBody() -> [UInt8] {
        inner.withLock { inner in
            defer { inner.body = [] }
            return inner.body
        }
    }

    /// See `RequestLifecycle.answer`. On a first answer also cancels the deadline's answer, stops
    /// watching for the client's close and, when the answer does not come from the handler itself,
    /// records `reason` and cancels the handler's task.
    func answer(_ response: HTTPResponse, fromHandler: Bool, reason: AbandonReason? = nil)
        -> RequestLifecycle.AnswerAction
    {
        let (action, deadline, task) = inner.withLock {
            inner -> (RequestLifecycle.AnswerAction, ScheduledAnswer?, Task<Void, Never>?) in
            let action = inner.lifecycle.answer(response)
            guard action != .ignored else { return (action, nil, nil) }
            if !fromHandler, let reason { abandonment.mark(reason) }
            defer {
                inner.deadline = nil
                inner.handlerTask = nil
            }
            return (action, inner.deadline, fromHandler ? nil : inner.handlerTask)
        }
        if action != .ignored { watched?.stopWatchingForClose() }
        deadline?.cancel()
        task?.cancel()
        return action
    }

    /// See `RequestLifecycle.suspendUnlessAnswered`; suspends the connection itself, under the
    /// lock that `answer` takes, so an answer from another thread resumes only a suspended
    /// connection. Only from inside the access handler call that started the handler.
    func suspendUnlessAnswered() -> RequestLifecycle.AfterStart {
        inner.withLock { inner in
            let next = inner.lifecycle.suspendUnlessAnswered()
            if next == .suspend {
                MHD_suspend_connection(connection.raw)
            }
            return next
        }
    }

    /// Keeps the handler's task (none for a delayed answer) and the deadline's answer so that an
    /// answer can cancel them, and has the watchdog call `clientClosed` if the client closes its
    /// connection meanwhile; cancels them right away if the request was answered before they existed.
    func attach(
        handlerTask: Task<Void, Never>?, deadline: ScheduledAnswer?, clientClosed: @escaping @Sendable () -> Void
    ) {
        let stillHandling = inner.withLock { inner in
            guard case .handling(suspended: true) = inner.lifecycle.state else { return false }
            inner.handlerTask = handlerTask
            inner.deadline = deadline
            // Under the lock `answer` takes, so an answer cannot come between this and the check.
            watched?.watchForClose(clientClosed)
            return true
        }
        if !stillHandling {
            handlerTask?.cancel()
            deadline?.cancel()
        }
    }
}

/// An answer a `DeadlineQueue` gives a request at an instant (its deadline's 503, a delayed
/// answer), until cancelled.
struct ScheduledAnswer: Sendable {
    let queue: DeadlineQueue
    let ticket: DeadlineQueue.Ticket

    func cancel() { queue.cancel(ticket) }
}
