/// The deadlines of one TCP connection, as a pure state machine: libmicrohttpd's callbacks report
/// what the connection reached, the watchdog asks `overdue(at:)` and closes the socket when a
/// deadline has passed.
///
/// libmicrohttpd's own connection timeout counts idleness, and any byte restarts it: a client
/// that sends one header line every few seconds ("slow loris") would hold its connection, and
/// a request slot, forever. These deadlines are absolute instead (nginx's
/// `client_header_timeout` / `client_body_timeout`, Node's `headersTimeout`):
///
/// - the request head (request line and header fields) is due `headerTimeoutMs` after the
///   connection was accepted, or, on a kept-alive connection, after the next request line;
/// - the body is due `bodyTimeoutMs` after the head;
/// - a kept-alive connection must send its next request line within `idleTimeoutMs` of the
///   previous answer.
///
/// While the handler works (and while its answer is written) no deadline runs here: the request
/// deadline and libmicrohttpd's idle timeout cover those. A timeout of 0 turns that deadline off.
/// Instants are monotonic nanoseconds.
struct ConnectionDeadlines: Sendable, Equatable {
    /// The timeouts, in milliseconds (0 = none).
    struct Timeouts: Sendable, Equatable {
        var headerMs: Int
        var bodyMs: Int
        var idleMs: Int
    }

    /// Why a connection was closed by its deadline: the metric label of each is its raw value.
    enum Reason: String, Sendable, Equatable, CaseIterable {
        case header
        case body
        case idle
    }

    enum Phase: Sendable, Equatable {
        /// Accepted, or a kept-alive connection's next request line seen: the head is due.
        /// → `awaitingBody` (head complete).
        case awaitingHead(deadline: UInt64?)
        /// The head is in; body bytes may follow. → `handling` (body complete).
        case awaitingBody(deadline: UInt64?)
        /// The handler has the request, or its answer is being written. → `idle` (answered).
        case handling
        /// Answered; the connection is kept alive for another request. → `awaitingHead`.
        case idle(deadline: UInt64?)
        /// Closed by a deadline (the socket is shut down). Terminal.
        case closed(Reason)
    }

    let timeouts: Timeouts
    private(set) var phase: Phase

    /// A connection accepted at `now`.
    init(timeouts: Timeouts, acceptedAt now: UInt64) {
        self.timeouts = timeouts
        self.phase = .awaitingHead(deadline: Self.deadline(now, timeouts.headerMs))
    }

    /// libmicrohttpd parsed a request line (its URI callback).
    mutating func requestLineReceived(at now: UInt64) {
        // The first request's head is due from the accept; a later one's from its request line.
        if case .idle = phase { phase = .awaitingHead(deadline: Self.deadline(now, timeouts.headerMs)) }
    }

    /// The header fields are in (the access handler's first call).
    mutating func headReceived(at now: UInt64) {
        if case .awaitingHead = phase { phase = .awaitingBody(deadline: Self.deadline(now, timeouts.bodyMs)) }
    }

    /// The body is in and the handler runs (the access handler's last upload call).
    mutating func bodyReceived() {
        if case .awaitingBody = phase { phase = .handling }
    }

    /// The request is over (libmicrohttpd's completion callback): answered, or dropped.
    mutating func requestCompleted(at now: UInt64) {
        switch phase {
        case .awaitingHead, .awaitingBody, .handling: phase = .idle(deadline: Self.deadline(now, timeouts.idleMs))
        case .idle, .closed: break
        }
    }

    /// The reason to close the connection when a deadline passed by `now`, recording that it is
    /// closed (so it is reported once); nil while every deadline holds.
    mutating func closeIfOverdue(at now: UInt64) -> Reason? {
        let reason: Reason
        switch phase {
        case .awaitingHead(let deadline?) where now >= deadline: reason = .header
        case .awaitingBody(let deadline?) where now >= deadline: reason = .body
        case .idle(let deadline?) where now >= deadline: reason = .idle
        default: return nil
        }
        phase = .closed(reason)
        return reason
    }

    /// Whether the handler has the request (where a closed socket means the client has gone).
    var isHandling: Bool { phase == .handling }

    private static func deadline(_ now: UInt64, _ timeoutMs: Int) -> UInt64? {
        timeoutMs > 0 ? now &+ UInt64(timeoutMs) &* 1_000_000 : nil
    }
}
