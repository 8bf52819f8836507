extension HTTPClient {
    /// Timeouts, limits, retries and secrets. Every field has a default.
    public struct Configuration: Sendable {
        /// How long one try may take to connect, in milliseconds (TCP and TLS handshakes).
        public var connectTimeoutMs: Int
        /// How long one try may take in total, in milliseconds. A call's `deadline` can shorten it.
        public var timeoutMs: Int
        /// The longest response body accepted, in bytes (after decoding gzip); a longer one aborts
        /// the transfer with `HTTPClientError.responseTooLarge`. Catalog pages are a few hundred kB.
        public var maxResponseBytes: Int
        /// Transfers in flight per host (scheme, host and port); more calls wait in line. 32 overlaps
        /// enough upstream latency (at 100 ms per call, 320 calls/s per host) without flooding a public
        /// API; on loopback, 16–64 in flight gave the best throughput (noisy on our shared 2 cores).
        public var maxConcurrentRequestsPerHost: Int
        /// Idle keep-alive connections libcurl keeps for reuse, across hosts (shared out among
        /// the transfer threads).
        public var maxIdleConnections: Int
        /// libcurl multi handles, each on a thread of its own, that transfers are spread over. One
        /// thread does every connect, send and receive of its transfers in turn; with 32 searches
        /// in flight, two halved the time a wave of them took to go out on our 2-core machines.
        public var transferThreads: Int
        public var retry: RetryPolicy
        /// Query parameters whose values are secret (compared case-insensitively): redacted from
        /// URLs in errors and descriptions.
        public var secretQueryParameters: Set<String>
        /// Header fields whose values are secret (compared case-insensitively): scrubbed from
        /// libcurl messages.
        public var secretHeaders: Set<String>
        /// The `User-Agent` sent with every request.
        public var userAgent: String

        public init(
            connectTimeoutMs: Int = 2_000, timeoutMs: Int = 10_000, maxResponseBytes: Int = 8 << 20,
            maxConcurrentRequestsPerHost: Int = 32, maxIdleConnections: Int = 64, transferThreads: Int = 2,
            retry: RetryPolicy = RetryPolicy(),
            secretQueryParameters: Set<String> = [
                "key", "api_key", "apikey", "applicationId", "accessKey", "access_token", "token",
            ],
            secretHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key"],
            userAgent: String = "MusicGraph/1.0"
        ) {
            self.connectTimeoutMs = connectTimeoutMs
            self.timeoutMs = timeoutMs
            self.maxResponseBytes = maxResponseBytes
            self.maxConcurrentRequestsPerHost = maxConcurrentRequestsPerHost
            self.maxIdleConnections = maxIdleConnections
            self.transferThreads = transferThreads
            self.retry = retry
            self.secretQueryParameters = secretQueryParameters
            self.secretHeaders = secretHeaders
            self.userAgent = userAgent
        }
    }
}
