/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `host` is not an IPv4 or IPv6 literal (nor `localhost`).
    case invalidHost(String)
    /// libmicrohttpd refused to start: typically the port is taken or not allowed.
    case startFailed(host: String, port: Int)
    /// `maxConnections` plus headroom needs `needed` open files, over the process's hard limit.
    case descriptorLimit(needed: Int, hardLimit: Int)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            "cannot listen on '\(host)': expected an IPv4 or IPv6 address or localhost"
        case .startFailed(let host, let port):
            "cannot listen on \(host):\(port) (port in use or not permitted?)"
        case .descriptorLimit(let needed, let hardLimit):
            "the connection limit needs \(needed) open files but the process may open only \(hardLimit) "
                + "(raise the hard limit, e.g. ulimit -Hn, or lower the connection limit)"
        }
    }
}
