import CMicroHTTPD
import Glibc
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that answers every request with an async handler.
///
/// libmicrohttpd polls sockets on `Configuration.threadPoolSize` threads (epoll, turbo mode);
/// once a request's body is in, the handler starts in a task of its own on that polling thread
/// (`Task.immediate`). A handler that returns without suspending is answered at once. When it
/// suspends, the connection is suspended too, and is resumed and answered when the handler
/// returns or `Configuration.requestTimeoutMs` passes (503), whichever comes first. A body over
/// `Configuration.maxBodyBytes` is answered 413 without calling the handler, or reaches it empty
/// with `HTTPRequest.bodyExceededLimit` under `Configuration.handlerAnswersOversizedBodies`.
///
/// The server listens from `init` until `shutdown()` (or until it is deinitialised, which stops it
/// without waiting for handlers).
public final class HTTPServer: Sendable {
    /// Answers one request. Runs in a task of its own, started on a polling thread: do little
    /// before the first suspension (that thread serves other connections too). Cancelled when
    /// the request deadline passes.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// Answers one request now or later (`HTTPAnswer`). Runs on the polling thread, without a
    /// task of its own: only a `.later` answer gets one. For servers whose answers often need no
    /// waiting (a cached result, a refusal): a Swift task per request cost ~3 µs, a tenth of a
    /// small answer.
    public typealias Responder = @Sendable (HTTPRequest) -> HTTPAnswer

    /// The configuration the server was started with (its `port` may be 0; see `port`).
    public let configuration: Configuration
    /// The TCP port the server listens on: the ephemeral one when `configuration.port` is 0.
    public let port: Int

    let state: DaemonState
    private let daemon: Mutex<DaemonHandle?>

    /// Starts listening on `configuration.host`:`configuration.port`; every request is
    /// answered later by `handler`, in a task of its own.
    /// - Throws: see `init(configuration:responder:)`.
    public convenience init(configuration: Configuration = Configuration(), handler: @escaping Handler)
        throws(HTTPServerError)
    {
        try self.init(configuration: configuration, responder: { request in .later { await handler(request) } })
    }

    /// Starts listening on `configuration.host`:`configuration.port`; every request goes to
    /// `responder`.
    /// - Throws: `HTTPServerError.invalidHost` for a host that is no IP literal (nor `localhost`),
    ///   `HTTPServerError.startFailed` when libmicrohttpd cannot start (port taken, …).
    public init(configuration: Configuration = Configuration(), responder: @escaping Responder) throws(HTTPServerError)
    {
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw .invalidHost(configuration.host)
        }
        try DescriptorLimit.ensure(connections: max(1, configuration.maxConnections))
        let state = DaemonState(responder: responder, configuration: configuration)
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_TURBO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let cls = Unmanaged.passRetained(state).toOpaque()
        let started = address.withSockaddr { sockaddr in
            mg_mhd_start_daemon(
                flags, sockaddr, UInt32(clamping: max(1, configuration.threadPoolSize)),
                UInt32(clamping: max(1, configuration.maxConnections)),
                // Whole seconds, rounded up: libmicrohttpd's granularity.
                UInt32(clamping: (max(0, configuration.idleTimeoutMs) + 999) / 1_000), 0,
                { cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
                    DaemonCallbacks.access(
                        cls: cls, connection: connection, url: url, method: method, uploadData: uploadData,
                        uploadDataSize: uploadDataSize, conCls: conCls)
                },
                { cls, _, conCls, _ in DaemonCallbacks.completed(cls: cls, conCls: conCls) },
                { cls, uri, connection in DaemonCallbacks.uriSeen(cls: cls, uri: uri, connection: connection) },
                { cls, connection, socketContext, code in
                    DaemonCallbacks.connectionNotified(
                        cls: cls, connection: connection, socketContext: socketContext, code: code)
                }, cls)
        }
        guard let started else {
            Unmanaged<DaemonState>.fromOpaque(cls).release()
            throw .startFailed(host: configuration.host, port: configuration.port)
        }
        self.configuration = configuration
        self.state = state
        self.port = Int(mg_mhd_bound_port(started))
        self.daemon = Mutex(DaemonHandle(raw: started))
        state.watchdog.start()
    }

    /// What the connection limits and deadlines did so far (for metrics).
    public var connectionStatistics: ConnectionStatistics { state.watchdog.statistics }

    deinit {
        if let handle = daemon.withLock({ $0.take() }) {
            state.answerAllSuspended(with: configuration.shutdownResponse)
            Self.stop(handle, state: state)
        }
    }

    /// Lets requests in flight finish for up to `configuration.shutdownGraceMs`, answers the
    /// rest 503, then stops the daemon (new connections are refused from then on). Requests that
    /// arrive during the grace are answered too (a load balancer may still send some), every
    /// answer with `Connection: close`. Calling it again, or concurrently, returns at once.
    public func shutdown() async {
        guard let handle = daemon.withLock({ $0.take() }) else { return }
        state.beginDraining()
        // Not MHD_quiesce_daemon: on an epoll daemon with polling threads it races them for the
        // listening socket's removal from epoll and aborts the process (MHD_PANIC "Failed to
        // remove listen FD from epoll set", an open libmicrohttpd defect; it crashed a test run).
        // Nor shutdown(2) on the listening socket while it stays in epoll: the workers then spin
        // on it at full CPU. So the socket keeps listening until MHD_stop_daemon closes it.
        await waitUntilIdle(withinMs: configuration.shutdownGraceMs)
        let unfinished = state.answerAllSuspended(with: configuration.shutdownResponse)
        configuration.graceEnded?(unfinished)
        // Give the resumed connections a moment to send their 503 before the sockets close: 200 ms,
        // and at least 100 looks, so a stalled cooperative pool cannot turn the wait into none.
        await waitUntilIdle(withinMs: 200, minimumPolls: 100)
        Self.stop(handle, state: state)
        // The cancelled handlers log and count the 503s their clients got: let them, for a while
        // (they were cancelled, so they should return at once), before the caller flushes logs.
        await waitUntilHandlersReturn(withinMs: 1_000)
    }

    /// Polls every 2 ms until every handler task has returned, for `milliseconds` at most.
    private func waitUntilHandlersReturn(withinMs milliseconds: Int) async {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .milliseconds(milliseconds))
        while state.runningHandlers > 0, !Task.isCancelled, clock.now < end {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Polls every 2 ms until no request is in flight, for `milliseconds` of wall time and at
    /// least `minimumPolls` polls, or until the calling task is cancelled.
    private func waitUntilIdle(withinMs milliseconds: Int, minimumPolls: Int = 0) async {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .milliseconds(milliseconds))
        var polls = 0
        while state.activeRequests > 0, !Task.isCancelled, clock.now < end || polls < minimumPolls {
            try? await Task.sleep(for: .milliseconds(2))
            polls += 1
        }
    }

    private static func stop(_ handle: DaemonHandle, state: DaemonState) {
        // MHD_stop_daemon must not meet a suspended connection; a resume may still be on its way.
        while state.hasResumesInProgress {
            sched_yield()
        }
        MHD_stop_daemon(handle.raw)
        state.watchdog.stop()
        state.deadlines.stop()
        Unmanaged.passUnretained(state).release()
    }
}

/// The daemon pointer. `@unchecked Sendable`: it is only used under `HTTPServer.daemon`'s mutex
/// (taken out exactly once, to stop it) and libmicrohttpd's daemon calls are thread-safe.
private struct DaemonHandle: @unchecked Sendable {
    let raw: OpaquePointer
}
