import Glibc

/// A numeric bind address for libmicrohttpd's `MHD_OPTION_SOCK_ADDR`.
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// Parses an IPv4 or IPv6 literal, or `localhost` (127.0.0.1); nil for anything else or a port
    /// outside 0...65535. No name resolution: the server binds exactly what it was told.
    init?(host: String, port: Int) {
        guard let port = UInt16(exactly: port) else { return nil }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        let bare = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        if inet_pton(AF_INET6, bare, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            return
        }
        return nil
    }

    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch storage {
        case .v4(var address):
            return withUnsafePointer(to: &address) { body(UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self)) }
        case .v6(var address):
            return withUnsafePointer(to: &address) { body(UnsafeRawPointer($0).assumingMemoryBound(to: sockaddr.self)) }
        }
    }
}
