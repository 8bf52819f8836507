import Glibc

/// The process's open-file limit (`RLIMIT_NOFILE`), raised so that a server's connection limit
/// fits in it: every connection is a descriptor, and a process that runs out cannot accept,
/// open upstream sockets or write its log.
enum DescriptorLimit {
    /// Descriptors kept free beside the connections: upstream sockets (libcurl's connection
    /// cache), the in-process demo upstream, epoll and eventfd handles, log and schema files.
    static let headroom = 1_024

    /// Raises the soft limit to at least `connections + headroom` (never lowers it), up to the
    /// hard limit.
    /// - Returns: the soft limit now in force.
    /// - Throws: `HTTPServerError.descriptorLimit` when the hard limit is below what is needed
    ///   (lower `maxConnections`, or raise the hard limit: `ulimit -Hn`, systemd `LimitNOFILE=`).
    @discardableResult
    static func ensure(connections: Int) throws(HTTPServerError) -> Int {
        let needed = connections + headroom
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return needed }
        let soft = Int(clamping: limit.rlim_cur)
        let hard = Int(clamping: limit.rlim_max)
        if soft >= needed { return soft }
        guard hard >= needed else { throw .descriptorLimit(needed: needed, hardLimit: hard) }
        limit.rlim_cur = rlim_t(needed)
        guard setrlimit(openFiles, &limit) == 0 else {
            throw .descriptorLimit(needed: needed, hardLimit: soft)
        }
        return needed
    }

    /// Glibc imports `RLIMIT_NOFILE` as an enum case on Linux and as an `Int32` elsewhere.
    #if os(Linux)
        private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let openFiles = RLIMIT_NOFILE
    #endif
}
