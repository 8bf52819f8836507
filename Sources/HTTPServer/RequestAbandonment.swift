import Synchronization

/// Why the server answered a request in its handler's place and cancelled the handler's task.
public enum AbandonReason: UInt8, Sendable, Equatable {
    /// `Configuration.requestTimeoutMs` passed: the client got a 503.
    case deadline = 1
    /// The server shut down past its grace: the client got a 503.
    case shutdown = 2
    /// The client closed its connection while the handler worked: nobody reads an answer (nginx
    /// logs such a request as 499, "client closed request").
    case clientClosed = 3
}

/// Whether, and why, the server gave up on one request's handler. Set before the handler's task
/// is cancelled, so that a cancelled handler can tell its client's 503 (shutdown, deadline) from
/// a client that went away, and log and count what really happened. Set once; thread-safe.
public final class RequestAbandonment: Sendable {
    private let raw = Atomic<UInt8>(0)

    public init() {}

    /// Nil while the handler's answer is still wanted.
    public var reason: AbandonReason? { AbandonReason(rawValue: raw.load(ordering: .acquiring)) }

    /// Records `reason` unless one is recorded already (the first answer wins).
    func mark(_ reason: AbandonReason) {
        _ = raw.compareExchange(expected: 0, desired: reason.rawValue, ordering: .acquiringAndReleasing)
    }
}
