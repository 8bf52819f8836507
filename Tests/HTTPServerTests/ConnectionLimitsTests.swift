import Glibc
import HTTPClient
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer
@testable import HTTPTypes

/// Deadlines for request heads, bodies and idle keep-alive, and the connection limits, over real
/// loopback sockets that the tests feed by hand like slow or idle clients.
@Suite struct ConnectionLimitsTests {
    let client = HTTPClient(
        configuration: HTTPClient.Configuration(timeoutMs: 10_000, retry: RetryPolicy(maxTries: 1)))

    @Test func aTrickledHeadIsClosedAtTheHeaderDeadline() async throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(headerTimeoutMs: 300)) { _ in
            calls.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200)
        }
        let socket = try HeldSocket(port: server.port)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(socket.send("GET /slow HTTP/1.1\r\nHost: t\r\n"))
        // A header line every 50 ms for 10 s, as a slow-loris client does: each byte would have
        // restarted libmicrohttpd's idle timeout.
        let trickle = Task.detached {
            for index in 0..<200 {
                try? await Task.sleep(for: .milliseconds(50))
                guard socket.send("X-Line-\(index): a\r\n") else { return }
            }
        }
        let (text, closed) = await socket.readUntilClosed(timeoutMs: 10_000)
        let elapsed = start.duration(to: clock.now)
        trickle.cancel()
        #expect(closed)
        #expect(text.isEmpty)  // no answer is possible before the head is in
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < .milliseconds(stallTolerantBoundMs))
        #expect(calls.load(ordering: .relaxed) == 0)
        #expect(server.connectionStatistics.closedAtHeaderDeadline == 1)
        await server.shutdown()
    }

    @Test func aStalledBodyIsClosedAtTheBodyDeadline() async throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(bodyTimeoutMs: 300)) { _ in
            calls.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200)
        }
        let socket = try HeldSocket(port: server.port)
        #expect(socket.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n0123456789"))
        let trickle = Task.detached {
            for _ in 0..<89 {
                try? await Task.sleep(for: .milliseconds(100))
                guard socket.send("x") else { return }
            }
        }
        let (_, closed) = await socket.readUntilClosed(timeoutMs: 10_000)
        trickle.cancel()
        #expect(closed)
        #expect(calls.load(ordering: .relaxed) == 0)
        #expect(server.connectionStatistics.closedAtBodyDeadline == 1)
        await server.shutdown()
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(idleTimeoutMs: 300)) { _ in
            HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        let socket = try HeldSocket(port: server.port)
        #expect(socket.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n"))
        let first = await socket.readResponse(timeoutMs: 5_000)
        #expect(first.hasPrefix("HTTP/1.1 200"))
        // Kept alive: a second request within the idle timeout is answered on the same socket.
        #expect(socket.send("GET /b HTTP/1.1\r\nHost: t\r\n\r\n"))
        let second = await socket.readResponse(timeoutMs: 5_000)
        #expect(second.hasPrefix("HTTP/1.1 200"))
        let clock = ContinuousClock()
        let start = clock.now
        let (_, closed) = await socket.readUntilClosed(timeoutMs: 10_000)
        #expect(closed)
        #expect(start.duration(to: clock.now) >= .milliseconds(250))
        #expect(server.connectionStatistics.closedAtIdleDeadline == 1)
        await server.shutdown()
    }

    @Test func aHeadSentInPiecesWithinTheDeadlineIsAnswered() async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(headerTimeoutMs: 2_000)) { request in
            HTTPResponse(status: 200, body: Array(request.path.utf8))
        }
        let socket = try HeldSocket(port: server.port)
        #expect(socket.send("GET /pie"))
        try await Task.sleep(for: .milliseconds(100))
        #expect(socket.send("ces HTTP/1.1\r\nHost: t\r\n"))
        try await Task.sleep(for: .milliseconds(100))
        #expect(socket.send("Connection: close\r\n\r\n"))
        let (text, closed) = await socket.readUntilClosed(timeoutMs: 5_000)
        #expect(closed)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.hasSuffix("\r\n\r\n/pieces"))
        #expect(server.connectionStatistics.closedAtHeaderDeadline == 0)
        await server.shutdown()
    }

    @Test func aClientAddressOverItsLimitIsClosedAtOnce() async throws {
        let server = try HTTPServer(
            configuration: HTTPServer.Configuration(maxConnectionsPerAddress: 2, limitLoopbackConnections: true)
        ) { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        let first = try HeldSocket(port: server.port)
        let second = try HeldSocket(port: server.port)
        // Both held open; make sure the server has registered them before the third arrives.
        #expect(first.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"))
        #expect(await first.readResponse(timeoutMs: 5_000).hasPrefix("HTTP/1.1 200"))
        #expect(second.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"))
        #expect(await second.readResponse(timeoutMs: 5_000).hasPrefix("HTTP/1.1 200"))

        let third = try HeldSocket(port: server.port)
        third.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        let (text, closed) = await third.readUntilClosed(timeoutMs: 5_000)
        #expect(closed)
        #expect(text.isEmpty)
        #expect(server.connectionStatistics.refusedOverAddressLimit == 1)

        // The first two still work, and a slot freed is a slot for someone else.
        #expect(first.send("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"))
        #expect(await first.readUntilClosed(timeoutMs: 5_000).text.hasPrefix("HTTP/1.1 200"))
        await waitUntil { server.connectionStatistics.open == 1 }
        let fourth = try HeldSocket(port: server.port)
        #expect(fourth.send("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"))
        #expect(await fourth.readUntilClosed(timeoutMs: 5_000).text.hasPrefix("HTTP/1.1 200"))
        await server.shutdown()
    }

    @Test func loopbackClientsAreNotLimitedPerAddressByDefault() async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(maxConnectionsPerAddress: 2)) { _ in
            HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        let sockets = try (0..<6).map { _ in try HeldSocket(port: server.port) }
        for socket in sockets {
            #expect(socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"))
            #expect(await socket.readResponse(timeoutMs: 5_000).hasPrefix("HTTP/1.1 200"))
        }
        #expect(server.connectionStatistics.refusedOverAddressLimit == 0)
        #expect(server.connectionStatistics.open == 6)
        await server.shutdown()
    }

    @Test func manySlowClientsDoNotKeepAFreshOneWaiting() async throws {
        // 600 connections that trickle their heads (and 600 that send nothing at all) hold far
        // fewer than the 4,096 connections allowed: a fresh client is answered at once, and the
        // header deadline frees the slow ones. bench/slowloris.py measures 2,000 of each.
        let server = try HTTPServer(configuration: HTTPServer.Configuration(headerTimeoutMs: 1_500)) { _ in
            HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        var held: [HeldSocket] = []
        for index in 0..<1_200 {
            let socket = try HeldSocket(port: server.port)
            if index % 2 == 0 { socket.send("GET / HTTP/1.1\r\nHost: t\r\n") }
            held.append(socket)
        }
        let response = try await client.get("http://127.0.0.1:\(server.port)/fresh")
        #expect(response.status == 200)
        await waitUntil(seconds: 10) { server.connectionStatistics.closedAtHeaderDeadline == 1_200 }
        #expect(server.connectionStatistics.closedAtHeaderDeadline == 1_200)
        await waitUntil(seconds: 10) { server.connectionStatistics.open == 1 }
        #expect(server.connectionStatistics.open == 1)  // the fresh client's, kept alive by libcurl
        held.removeAll()
        await server.shutdown()
    }

    @Test func theDescriptorLimitIsRaisedToFitOrTheServerRefusesToStart() throws {
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = Int(clamping: limit.rlim_max)
        #expect(try DescriptorLimit.ensure(connections: 16) >= 16 + DescriptorLimit.headroom)
        #expect(throws: HTTPServerError.descriptorLimit(needed: hard + 1 + DescriptorLimit.headroom, hardLimit: hard)) {
            try HTTPServer(configuration: HTTPServer.Configuration(maxConnections: hard + 1)) { _ in
                HTTPResponse(status: 200)
            }
        }
    }
}
