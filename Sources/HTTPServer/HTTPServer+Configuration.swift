extension HTTPServer {
    /// Where the server listens and the limits it enforces. Every field has a default.
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal, or `localhost` (= 127.0.0.1).
        public var host: String
        /// The TCP port; 0 picks a free ephemeral port (read it back from `HTTPServer.port`).
        public var port: Int
        /// The largest request body accepted, in bytes; a longer one is answered 413 without calling
        /// the handler (unless `handlerAnswersOversizedBodies`). 1 MiB fits any GraphQL document we
        /// expect by two orders of magnitude.
        public var maxBodyBytes: Int
        /// Hand a request whose body is over `maxBodyBytes` to the handler, with an empty body and
        /// `HTTPRequest.bodyExceededLimit` set, instead of answering a plain-text 413 without it: for
        /// handlers that answer, log and count every request themselves. Off by default, so that a
        /// handler that does not look at the flag never sees a truncated request.
        public var handlerAnswersOversizedBodies: Bool
        /// How long a handler may take, in milliseconds, before the client gets a 503 and the
        /// handler's task is cancelled. Needed because libmicrohttpd never times out a suspended
        /// connection. Counted from the handler's first suspension (a handler that never suspends
        /// is answered before any deadline could fire). 0 disables the deadline.
        public var requestTimeoutMs: Int
        /// How long a request's head (request line and header fields) may take to arrive, in
        /// milliseconds, counted from the connection's accept (or, on a kept-alive connection,
        /// from its request line); the socket is closed after it. Unlike libmicrohttpd's own timeout
        /// no byte restarts it, so a client that trickles header lines ("slow loris") cannot hold
        /// a connection. 10 s, as nginx's `client_header_timeout` is 60 s and Node's 60 s: a real
        /// client sends its head in one packet. 0 = no deadline. See `ConnectionDeadlines`.
        public var headerTimeoutMs: Int
        /// How long a request's body may take to arrive after its head, in milliseconds; the
        /// socket is closed after it. 30 s: 1 MiB (the body limit) at 35 kB/s. 0 = no deadline.
        public var bodyTimeoutMs: Int
        /// How long a kept-alive connection may wait for its next request line after an answer,
        /// in milliseconds. libmicrohttpd's own connection timeout is set to the same, rounded up
        /// to whole seconds: it also closes a connection on which nothing moves for that long
        /// (a client that stops reading its answer, a stalled body). 0 = keep idle connections.
        public var idleTimeoutMs: Int
        /// Worker threads polling sockets; `.now` answers are computed on them, `.later` work
        /// runs in Swift tasks. Two measured best on our two-core machines (one thread gave a
        /// fifth fewer requests per second in bench/http-gateway.sh, for us and for bare
        /// libmicrohttpd alike).
        public var threadPoolSize: Int
        /// The most connections open at once, across all workers; beyond it new connections wait
        /// in the kernel's listen backlog. 4,096 leaves headroom over any real client population
        /// of one instance, so idle or slow connections cannot lock others out before their
        /// deadlines close them. The process's open-file limit is raised to fit at start-up
        /// (`DescriptorLimit`), or the server refuses to start.
        public var maxConnections: Int
        /// The most connections one client address may hold open (an IPv4-mapped IPv6 address
        /// counts as its IPv4 address); a connection over it is closed at once. 0 = no limit. 256
        /// by default, a sixteenth of `maxConnections`: no single stranger takes them all, while
        /// a few proxies in front of the server still fit.
        public var maxConnectionsPerAddress: Int
        /// Whether `maxConnectionsPerAddress` also applies to loopback clients (127.0.0.0/8, ::1).
        /// Off by default: on loopback the clients are a local proxy, a sidecar or tests, which
        /// open many connections from one address by design.
        public var limitLoopbackConnections: Bool
        /// How long `shutdown()` waits for requests in flight, in milliseconds, before it answers
        /// the rest 503.
        public var shutdownGraceMs: Int
        /// Hears of every request the server answers itself without calling the responder: the
        /// 503 of a request that arrives after a shutdown has answered the requests in flight.
        /// For a responder that logs and counts every request; runs on a polling thread. Answers
        /// given in a handler's place (deadline, shutdown, a client gone) reach the handler
        /// instead, through `HTTPRequest.abandonment` and its task's cancellation.
        public var serverAnswered: (@Sendable (HTTPRequest, HTTPResponse) -> Void)?
        /// The 503 a shutdown gives the requests it answers itself (in flight past the grace, or
        /// arriving after it): plain text by default; a GraphQL server sets a GraphQL error, so
        /// that every answer its clients get carries `extensions.code`.
        public var shutdownResponse: HTTPResponse = .shuttingDown
        /// Hears, when a shutdown's grace runs out, how many requests (and streamed answers)
        /// were still running and were answered `shutdownResponse` (or cut off) then.
        public var graceEnded: (@Sendable (_ unfinished: Int) -> Void)?

        public init(
            host: String = "127.0.0.1", port: Int = 0, maxBodyBytes: Int = 1 << 20, requestTimeoutMs: Int = 30_000,
            headerTimeoutMs: Int = 10_000, bodyTimeoutMs: Int = 30_000, idleTimeoutMs: Int = 30_000,
            threadPoolSize: Int = 2, maxConnections: Int = 4_096, maxConnectionsPerAddress: Int = 256,
            limitLoopbackConnections: Bool = false, shutdownGraceMs: Int = 5_000,
            handlerAnswersOversizedBodies: Bool = false
        ) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.requestTimeoutMs = requestTimeoutMs
            self.headerTimeoutMs = headerTimeoutMs
            self.bodyTimeoutMs = bodyTimeoutMs
            self.idleTimeoutMs = idleTimeoutMs
            self.threadPoolSize = threadPoolSize
            self.maxConnections = maxConnections
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.limitLoopbackConnections = limitLoopbackConnections
            self.shutdownGraceMs = shutdownGraceMs
            self.handlerAnswersOversizedBodies = handlerAnswersOversizedBodies
        }
    }
}
