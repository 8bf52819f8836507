extension HTTPServer {
    /// What the server's connection limits and deadlines did, for metrics. Counts since start.
    public struct ConnectionStatistics: Sendable, Equatable {
        /// Connections open now.
        public var open: Int
        /// Connections closed at once because their client address held
        /// `Configuration.maxConnectionsPerAddress` already.
        public var refusedOverAddressLimit: Int
        /// Connections closed because their request head was not in by `headerTimeoutMs`.
        public var closedAtHeaderDeadline: Int
        /// Connections closed because their request body was not in by `bodyTimeoutMs`.
        public var closedAtBodyDeadline: Int
        /// Kept-alive connections closed after `idleTimeoutMs` without a new request.
        public var closedAtIdleDeadline: Int

        public init(
            open: Int = 0, refusedOverAddressLimit: Int = 0, closedAtHeaderDeadline: Int = 0,
            closedAtBodyDeadline: Int = 0, closedAtIdleDeadline: Int = 0
        ) {
            self.open = open
            self.refusedOverAddressLimit = refusedOverAddressLimit
            self.closedAtHeaderDeadline = closedAtHeaderDeadline
            self.closedAtBodyDeadline = closedAtBodyDeadline
            self.closedAtIdleDeadline = closedAtIdleDeadline
        }
    }
}
