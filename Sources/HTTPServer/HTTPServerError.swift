/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `host` is not an IPv4 or IPv6 literal (nor `localhost`).
    case invalidHost(String)
    /// libmicrohttpd refused to start: typically the port is taken or not allowed.
    case startFailed(host: String, port: Int)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            "cannot listen on '\(host)': expected an IPv4 or IPv6 address or localhost"
        case .startFailed(let host, let port):
            "cannot listen on \(host):\(port) (port in use or not permitted?)"
        }
    }
}
