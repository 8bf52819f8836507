import Glibc
import Testing

@testable import HTTPServer
@testable import HTTPTypes

@Suite struct ClientAddressTests {
    @Test func loopbackIsAllOf127Slash8AndColonColon1() {
        #expect(ClientAddress(ipv4: 0x7F00_0001).isLoopback)
        #expect(ClientAddress(ipv4: 0x7F12_3456).isLoopback)
        #expect(!ClientAddress(ipv4: 0x0A00_0001).isLoopback)
        #expect(!ClientAddress(ipv4: 0x8000_0001).isLoopback)
        #expect(ClientAddress(ipv6: [UInt8](repeating: 0, count: 15) + [1]).isLoopback)
        #expect(!ClientAddress(ipv6: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]).isLoopback)
    }

    @Test func anIPv4MappedAddressIsItsIPv4Address() throws {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        #expect(inet_pton(AF_INET, "192.0.2.7", &v4.sin_addr) == 1)
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        #expect(inet_pton(AF_INET6, "::ffff:192.0.2.7", &v6.sin6_addr) == 1)
        let fromV4 = try #require(
            withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) } })
        let fromV6 = try #require(
            withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) } })
        #expect(fromV4 == fromV6)
        #expect(fromV4 == ClientAddress(ipv4: 0xC000_0207))
        #expect(!fromV4.isLoopback)
    }
}
