import Glibc

/// A client's IP address, the key of the per-address connection limit. An IPv4-mapped IPv6
/// address (`::ffff:a.b.c.d`, what a dual-stack socket reports for IPv4 clients) is the IPv4
/// address, so one client counts once whichever way it connected.
struct ClientAddress: Hashable, Sendable {
    /// The 16 bytes of the IPv6 address, or of `::ffff:a.b.c.d` for IPv4, as two big-endian words.
    private let high: UInt64
    private let low: UInt64

    /// The address of `sockaddr` (an `AF_INET` or `AF_INET6` one); nil for any other family.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self.init(ipv4: UInt32(bigEndian: v4.sin_addr.s_addr))
        case AF_INET6:
            let v6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            self.init(ipv6: bytes)
        default:
            return nil
        }
    }

    /// An IPv4 address in host byte order (`0x7F000001` = 127.0.0.1).
    init(ipv4: UInt32) {
        high = 0
        low = 0x0000_FFFF_0000_0000 | UInt64(ipv4)
    }

    /// An IPv6 address from its 16 bytes in network order.
    init(ipv6 bytes: [UInt8]) {
        precondition(bytes.count == 16, "an IPv6 address has 16 bytes")
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// 127.0.0.0/8 (also IPv4-mapped) or `::1`: the machine itself.
    var isLoopback: Bool {
        if high == 0, low == 1 { return true }
        return high == 0 && low >> 32 == 0x0000_FFFF && (low >> 24) & 0xFF == 127
    }
}
