import Glibc

/// A client's IP address: the key of the per-address connection limit, and who an anonymous
/// request comes from. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack socket
/// reports for IPv4 clients) is the IPv4 address, so one client counts once whichever way it
/// connected.
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes of the IPv6 address, or of `::ffff:a.b.c.d` for IPv4, as two big-endian words.
    private let high: UInt64
    private let low: UInt64

    /// The address of `sockaddr` (an `AF_INET` or `AF_INET6` one); nil for any other family.
    public init?(_ address: UnsafePointer<sockaddr>) {
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

    /// The address written as text (`192.0.2.7`, `2001:db8::1`, `::ffff:192.0.2.7` for IPv4);
    /// nil for anything else.
    public init?(parsing text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(ipv6: withUnsafeBytes(of: v6) { Array($0) })
    }

    /// An IPv4 address in host byte order (`0x7F000001` = 127.0.0.1).
    public init(ipv4: UInt32) {
        high = 0
        low = 0x0000_FFFF_0000_0000 | UInt64(ipv4)
    }

    /// An IPv6 address from its 16 bytes in network order.
    public init(ipv6 bytes: [UInt8]) {
        precondition(bytes.count == 16, "an IPv6 address has 16 bytes")
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 16 bytes, in network order (IPv4 as `::ffff:a.b.c.d`).
    var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64($0))) }
    }

    /// Whether this is an IPv4 address (held as `::ffff:a.b.c.d`).
    var isIPv4: Bool { high == 0 && low >> 32 == 0x0000_FFFF }

    /// Dotted decimal for IPv4, the RFC 5952 form for IPv6.
    public var description: String {
        if isIPv4 {
            let v4 = UInt32(truncatingIfNeeded: low)
            return "\(v4 >> 24).\(v4 >> 16 & 0xFF).\(v4 >> 8 & 0xFF).\(v4 & 0xFF)"
        }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "::" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 127.0.0.0/8 (also IPv4-mapped) or `::1`: the machine itself.
    public var isLoopback: Bool {
        if high == 0, low == 1 { return true }
        return high == 0 && low >> 32 == 0x0000_FFFF && (low >> 24) & 0xFF == 127
    }
}
