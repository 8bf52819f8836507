import CMicroHTTPD
import Glibc
import HTTPTypes
import Synchronization

/// One accepted TCP connection as the watchdog sees it; the `socket_context` libmicrohttpd keeps
/// for the socket (retained from its start notification to its close notification).
final class WatchedConnection: Sendable {
    /// The socket. Valid while the connection is in the watchdog's registry: libmicrohttpd
    /// reports the close before it closes the descriptor, and the registry's lock orders the two.
    let fd: Int32
    /// The client's address when it counts toward the per-address limit.
    let limitedAddress: ClientAddress?
    private let deadlines: Mutex<ConnectionDeadlines>
    /// While a suspended request waits for its handler: what to do when the client closes the
    /// connection (libmicrohttpd does not poll a suspended connection, so it would not notice).
    private let onClose = Mutex<(@Sendable () -> Void)?>(nil)

    init(fd: Int32, limitedAddress: ClientAddress?, deadlines: ConnectionDeadlines) {
        self.fd = fd
        self.limitedAddress = limitedAddress
        self.deadlines = Mutex(deadlines)
    }

    func requestLineReceived(at now: UInt64) { deadlines.withLock { $0.requestLineReceived(at: now) } }
    func headReceived(at now: UInt64) { deadlines.withLock { $0.headReceived(at: now) } }
    func bodyReceived() { deadlines.withLock { $0.bodyReceived() } }
    func requestCompleted(at now: UInt64) { deadlines.withLock { $0.requestCompleted(at: now) } }
    fileprivate func closeIfOverdue(at now: UInt64) -> ConnectionDeadlines.Reason? {
        deadlines.withLock { $0.closeIfOverdue(at: now) }
    }

    /// Calls `action` (once, from the watchdog's thread) if the client closes the connection
    /// before `stopWatchingForClose()`.
    func watchForClose(_ action: @escaping @Sendable () -> Void) { onClose.withLock { $0 = action } }
    func stopWatchingForClose() { onClose.withLock { $0 = nil } }
    fileprivate var isWatchedForClose: Bool { onClose.withLock { $0 != nil } }
    fileprivate func takeCloseAction() -> (@Sendable () -> Void)? { onClose.withLock { $0.take() } }
}

/// Closes connections whose request head, body or keep-alive idle time is past its deadline
/// (`ConnectionDeadlines`), and enforces the per-client-address connection limit.
///
/// libmicrohttpd offers neither: its timeout restarts on every byte, and its per-IP limit
/// cannot spare loopback. So a thread of our own looks at every connection each `tickMs` and
/// `shutdown(2)`s the socket of an overdue one; libmicrohttpd then reads the end of the stream
/// and closes the connection itself (no HTTP answer is possible before the head is in, as with
/// nginx's `client_header_timeout`). A thread, not a task: the sweep must run when the
/// cooperative pool is saturated, which is exactly when a server is under attack.
final class ConnectionWatchdog: Sendable {
    struct Limits: Sendable, Equatable {
        var timeouts: ConnectionDeadlines.Timeouts
        /// The most connections one client address may hold open; 0 = no limit.
        var maxConnectionsPerAddress: Int
        /// Whether loopback clients count toward `maxConnectionsPerAddress`.
        var limitLoopback: Bool
    }

    private struct Registry {
        var connections: [ObjectIdentifier: WatchedConnection] = [:]
        var perAddress: [ClientAddress: Int] = [:]
    }

    let limits: Limits
    /// How often the deadlines are checked, in milliseconds: a tenth of the shortest timeout,
    /// within 5…100 ms, so a deadline fires at most that late.
    let tickMs: Int
    private let registry = Mutex(Registry())
    private let stopped = Atomic<Bool>(false)
    private let refusedOverAddressLimit = Atomic<Int>(0)
    private let closedAtHeader = Atomic<Int>(0)
    private let closedAtBody = Atomic<Int>(0)
    private let closedAtIdle = Atomic<Int>(0)
    private let open = Atomic<Int>(0)

    init(limits: Limits) {
        self.limits = limits
        let shortest = [limits.timeouts.headerMs, limits.timeouts.bodyMs, limits.timeouts.idleMs].filter { $0 > 0 }
            .min()
        self.tickMs = min(100, max(5, (shortest ?? 1_000) / 10))
    }

    /// Starts the sweeping thread; it runs until `stop()`.
    func start() {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let watchdog = Unmanaged<ConnectionWatchdog>.fromOpaque(argument).takeRetainedValue()
                watchdog.run()
                return nil
            }, retained)
        if created == 0 {
            pthread_detach(thread)
        } else {
            // No thread: connections then only have libmicrohttpd's idle timeout, as before.
            Unmanaged<ConnectionWatchdog>.fromOpaque(retained).release()
        }
    }

    /// Ends the sweeping thread within one tick.
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    /// libmicrohttpd accepted a connection (its start notification): registers it, and shuts it
    /// down at once when its address is over the per-address limit.
    func connectionStarted(fd: Int32, address: ClientAddress?, at now: UInt64) -> WatchedConnection {
        let limited =
            limits.maxConnectionsPerAddress > 0 && (limits.limitLoopback || address?.isLoopback == false)
            ? address : nil
        let connection = WatchedConnection(
            fd: fd, limitedAddress: limited, deadlines: ConnectionDeadlines(timeouts: limits.timeouts, acceptedAt: now))
        open.add(1, ordering: .relaxed)
        registry.withLock { registry in
            registry.connections[ObjectIdentifier(connection)] = connection
            guard let limited else { return }
            registry.perAddress[limited, default: 0] += 1
            guard registry.perAddress[limited, default: 0] > limits.maxConnectionsPerAddress else { return }
            refusedOverAddressLimit.add(1, ordering: .relaxed)
            // Under the lock, like every shutdown of a registered socket (see `fd`).
            _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        }
        return connection
    }

    /// libmicrohttpd is closing the connection (its close notification, before it closes the
    /// socket).
    func connectionClosed(_ connection: WatchedConnection) {
        registry.withLock { registry in
            registry.connections[ObjectIdentifier(connection)] = nil
            if let address = connection.limitedAddress, let count = registry.perAddress[address] {
                registry.perAddress[address] = count > 1 ? count - 1 : nil
            }
        }
        open.subtract(1, ordering: .relaxed)
    }

    /// The counters behind the server's connection metrics.
    var statistics: HTTPServer.ConnectionStatistics {
        HTTPServer.ConnectionStatistics(
            open: open.load(ordering: .relaxed),
            refusedOverAddressLimit: refusedOverAddressLimit.load(ordering: .relaxed),
            closedAtHeaderDeadline: closedAtHeader.load(ordering: .relaxed),
            closedAtBodyDeadline: closedAtBody.load(ordering: .relaxed),
            closedAtIdleDeadline: closedAtIdle.load(ordering: .relaxed))
    }

    /// Monotonic nanoseconds, the clock of every deadline.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    // MARK: - The sweep

    private func run() {
        var release = FloodMemoryRelease()
        while !stopped.load(ordering: .acquiring) {
            usleep(UInt32(tickMs * 1_000))
            let now = Self.now()
            sweep(at: now)
            if release.shouldRelease(open: open.load(ordering: .relaxed), at: now) { _ = mg_release_free_memory() }
        }
    }

    /// Shuts down every connection past a deadline at `now`, counting each before its socket
    /// closes (so a client that sees the close sees the count too); then tells the requests whose
    /// client closed its connection while they waited for their handler.
    func sweep(at now: UInt64) {
        for action in closedWhileWatched() { action() }
        registry.withLock { registry in
            for connection in registry.connections.values {
                guard let reason = connection.closeIfOverdue(at: now) else { continue }
                switch reason {
                case .header: closedAtHeader.add(1, ordering: .relaxed)
                case .body: closedAtBody.add(1, ordering: .relaxed)
                case .idle: closedAtIdle.add(1, ordering: .relaxed)
                }
                _ = Glibc.shutdown(connection.fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// The close actions of watched connections whose peer has closed (or reset) the connection:
    /// one `poll(2)` without waiting over their sockets, under the registry's lock (see `fd`).
    /// `POLLRDHUP` is the peer's FIN even with unread bytes before it; data alone (a pipelined
    /// request) is not a close.
    /// `POLLRDHUP` (Linux since 2.6.17): Glibc's module leaves it out, as it needs `_GNU_SOURCE`.
    private static let pollReadHangUp: Int16 = 0x2000

    private func closedWhileWatched() -> [@Sendable () -> Void] {
        registry.withLock { registry in
            let watched = registry.connections.values.filter(\.isWatchedForClose)
            guard !watched.isEmpty else { return [] }
            var fds = watched.map { pollfd(fd: $0.fd, events: Self.pollReadHangUp, revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 0) > 0 else { return [] }
            let closed = Self.pollReadHangUp | Int16(POLLHUP) | Int16(POLLERR)
            return zip(watched, fds).compactMap { connection, polled in
                polled.revents & closed != 0 ? connection.takeCloseAction() : nil
            }
        }
    }
}
