import Testing

@testable import HTTPServer

/// Bind addresses: numeric literals only, no name resolution.
@Suite struct SocketAddressTests {
    @Test func literalsAndLocalhost() {
        #expect(SocketAddress(host: "127.0.0.1", port: 8080)?.isIPv6 == false)
        #expect(SocketAddress(host: "0.0.0.0", port: 0)?.isIPv6 == false)
        #expect(SocketAddress(host: "localhost", port: 80)?.isIPv6 == false)
        #expect(SocketAddress(host: "::1", port: 80)?.isIPv6 == true)
        #expect(SocketAddress(host: "[::1]", port: 80)?.isIPv6 == true)
    }

    @Test func namesAndBadPortsAreRefused() {
        #expect(SocketAddress(host: "example.org", port: 80) == nil)
        #expect(SocketAddress(host: "127.0.0.1", port: 65_536) == nil)
        #expect(SocketAddress(host: "127.0.0.1", port: -1) == nil)
        #expect(SocketAddress(host: "", port: 80) == nil)
    }
}
