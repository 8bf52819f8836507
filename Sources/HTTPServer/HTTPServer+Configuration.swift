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
        /// How long an idle keep-alive connection stays open, in seconds (libmicrohttpd's
        /// connection timeout; it does not run while a handler works).
        public var idleTimeoutSeconds: Int
        /// Worker threads polling sockets; `.now` answers are computed on them, `.later` work
        /// runs in Swift tasks. Two measured best on our two-core machines (one thread gave a
        /// fifth fewer requests per second in bench/http-gateway.sh, for us and for bare
        /// libmicrohttpd alike).
        public var threadPoolSize: Int
        /// The most connections open at once, across all workers.
        public var maxConnections: Int
        /// How long `shutdown()` waits for requests in flight, in milliseconds, before it answers
        /// the rest 503.
        public var shutdownGraceMs: Int

        public init(
            host: String = "127.0.0.1", port: Int = 0, maxBodyBytes: Int = 1 << 20, requestTimeoutMs: Int = 30_000,
            idleTimeoutSeconds: Int = 30, threadPoolSize: Int = 2, maxConnections: Int = 1_000,
            shutdownGraceMs: Int = 5_000, handlerAnswersOversizedBodies: Bool = false
        ) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.requestTimeoutMs = requestTimeoutMs
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.threadPoolSize = threadPoolSize
            self.maxConnections = maxConnections
            self.shutdownGraceMs = shutdownGraceMs
            self.handlerAnswersOversizedBodies = handlerAnswersOversizedBodies
        }
    }
}
