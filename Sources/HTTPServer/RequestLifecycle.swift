/// The life of one request between libmicrohttpd's callbacks and its async handler, as a pure
/// state machine: events come in, the caller (which owns the C connection) performs the action.
///
/// libmicrohttpd calls the access handler once when the headers are in, once per body chunk,
/// and once when the body is complete. In that call the handler starts on the polling thread;
/// if it answers before it first suspends, the response is queued in the same call. Otherwise
/// the connection is suspended, and the access handler is called once more after the resume,
/// which queues the response: a response may only be queued from inside the access handler.
struct RequestLifecycle: Sendable {
    enum State: Sendable, Equatable {
        /// URI seen, headers not yet handed to us. → `receiving` or `answered` (body announced too large).
        case started
        /// Body bytes arriving; `bodyBytes` counted so far. → `handling` or `answered` (over the limit).
        case receiving(bodyBytes: Int, overLimit: Bool)
        /// The handler running: still inside the access handler call that started it
        /// (`suspended == false`), or after that call suspended the connection. → `ready`
        /// (handler, deadline or shutdown), or `answered` (answered before the suspension).
        case handling(suspended: Bool)
        /// Answered with this response, waiting to be queued: by the access handler call that
        /// started the handler, or by the next call after the resume. → `answered`.
        case ready(HTTPResponse)
        /// Response queued to libmicrohttpd. Terminal.
        case answered
    }

    /// What the access handler does when it is called without body bytes.
    enum CallAction: Sendable, Equatable {
        /// Nothing to do yet: return MHD_YES.
        case proceed
        /// Queue this response now.
        case respond(HTTPResponse)
        /// Start the handler, then `suspendUnlessAnswered()`.
        case handle
        /// The body is over the limit and the handler answers that itself: start it with an empty
        /// body and `bodyExceededLimit`, then `suspendUnlessAnswered()`.
        case handleOversized
    }

    /// What the answer to a handled request asks of its giver.
    enum AnswerAction: Sendable, Equatable {
        /// The connection is suspended: resume it (exactly once), libmicrohttpd then calls again.
        case resume
        /// The access handler call that started the handler has not returned yet: it queues the
        /// response itself, so nothing is to be resumed.
        case none
        /// The request has its answer already; this one is dropped.
        case ignored
    }

    /// What the access handler call that started the handler does once the handler suspends or
    /// returns.
    enum AfterStart: Sendable, Equatable {
        /// Queue this response now (the handler, or a shutdown, answered in the meantime).
        case respond(HTTPResponse)
        /// Suspend the connection: the answer will come from another thread.
        case suspend
    }

    /// What to do with a body chunk.
    enum BodyAction: Sendable, Equatable {
        case append
        /// The body is over the limit: drop the bytes, answer 413 once it ends.
        case discard
    }

    private(set) var state: State = .started
    let maxBodyBytes: Int
    /// `HTTPServer.Configuration.handlerAnswersOversizedBodies`.
    let handlerAnswersOversizedBodies: Bool

    init(maxBodyBytes: Int, handlerAnswersOversizedBodies: Bool = false) {
        self.maxBodyBytes = maxBodyBytes
        self.handlerAnswersOversizedBodies = handlerAnswersOversizedBodies
    }

    /// The access handler was called with no body bytes. `contentLength` is the request's
    /// `Content-Length` header, if any (only read on the first call).
    mutating func called(contentLength: Int?) -> CallAction {
        switch state {
        case .started:
            // An announced oversized body is refused before it is read (no 100-continue is sent).
            if let contentLength, contentLength > maxBodyBytes { return refuseOversized() }
            state = .receiving(bodyBytes: 0, overLimit: false)
            return .proceed
        case .receiving(_, let overLimit):
            if overLimit { return refuseOversized() }
            state = .handling(suspended: false)
            return .handle
        case .ready(let response):
            state = .answered
            return .respond(response)
        case .handling, .answered:
            return .proceed
        }
    }

    /// A body over the limit: 413 now, or the handler's own answer.
    private mutating func refuseOversized() -> CallAction {
        if handlerAnswersOversizedBodies {
            state = .handling(suspended: false)
            return .handleOversized
        }
        state = .answered
        return .respond(.payloadTooLarge(limitBytes: maxBodyBytes))
    }

    /// The handler started by `.handle` suspended or returned, and the access handler call is
    /// about to return: queue its answer if it has one, else suspend the connection (under the
    /// same lock as this transition, so that no resume can come before the suspension).
    mutating func suspendUnlessAnswered() -> AfterStart {
        switch state {
        case .ready(let response):
            state = .answered
            return .respond(response)
        case .handling(suspended: false):
            state = .handling(suspended: true)
            return .suspend
        case .started, .receiving, .handling(suspended: true), .answered:
            // Not reachable from the access handler's sequence of calls; suspending now could
            // leave a connection that nobody resumes, so answer it instead.
            state = .answered
            return .respond(
                HTTPResponse(status: 500, contentType: "text/plain; charset=utf-8", body: "internal error\n"))
        }
    }

    /// A body chunk of `count` bytes arrived.
    mutating func bodyReceived(count: Int) -> BodyAction {
        switch state {
        case .receiving(let bodyBytes, let overLimit):
            let total = bodyBytes + count
            let over = overLimit || total > maxBodyBytes
            state = .receiving(bodyBytes: total, overLimit: over)
            return over ? .discard : .append
        case .started, .handling, .ready, .answered:
            // Body bytes only come between the first and the last call; anything else is dropped.
            return .discard
        }
    }

    /// The handler, the deadline or a shutdown produced `response`: only the first answer
    /// counts, and only its giver resumes the connection, when it is suspended.
    mutating func answer(_ response: HTTPResponse) -> AnswerAction {
        guard case .handling(let suspended) = state else { return .ignored }
        state = .ready(response)
        return suspended ? .resume : .none
    }
}
