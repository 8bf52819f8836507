import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// Bodies written while they are sent (`HTTPResponse.bodyStream`): each write reaches the client
/// before the next exists, and a client that leaves, or a shutdown, abandons the rest.
@Suite struct StreamedBodyTests {
    /// A handler that answers with a stream, writes `first` and waits for `release` before it
    /// writes `second` and finishes.
    final class Writer: Sendable {
        let stream = HTTPBodyStream()
        let release = Atomic<Bool>(false)
        let abandoned = Mutex<[AbandonReason]>([])
        let laterWrite = Mutex<Bool?>(nil)

        func respond(_ request: HTTPRequest) -> HTTPResponse {
            guard request.path == "/stream" else { return HTTPResponse(status: 200, body: Array("again".utf8)) }
            stream.whenAbandoned { reason in self.abandoned.withLock { $0.append(reason) } }
            Task {
                stream.write(Array("first|".utf8))
                while !release.load(ordering: .acquiring), stream.abandonment == nil {
                    try? await Task.sleep(for: .milliseconds(5))
                }
                let wanted = stream.write(Array("second|".utf8))
                laterWrite.withLock { $0 = wanted }
                stream.finish()
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], bodyStream: stream)
        }
    }

    @Test func eachWriteReachesTheClientBeforeTheNextIsMade() async throws {
        let writer = Writer()
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 100)) { request in
            writer.respond(request)
        }
        let socket = try HeldSocket(port: server.port)
        socket.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        // "second|" is only written once the test has seen "first|": the first write was sent alone.
        let head = await socket.readUntil("first|", timeoutMs: 5_000)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.lowercased().contains("transfer-encoding: chunked"))
        #expect(head.contains("first|"))
        #expect(!head.contains("second|"))
        writer.release.store(true, ordering: .releasing)
        let rest = await socket.readUntil("0\r\n\r\n", timeoutMs: 5_000)
        #expect(rest.contains("second|"))
        #expect(rest.hasSuffix("0\r\n\r\n"))
        // The connection is kept alive: it answers another request.
        socket.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await socket.readUntil("again", timeoutMs: 5_000).hasSuffix("again"))
        await server.shutdown()
        #expect(writer.laterWrite.withLock { $0 } == true)
    }

    @Test func aClientThatLeavesMidStreamAbandonsTheRest() async throws {
        let writer = Writer()
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 100)) { request in
            writer.respond(request)
        }
        do {
            let socket = try HeldSocket(port: server.port)
            socket.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await socket.readUntil("first|", timeoutMs: 5_000).contains("first|"))
        }  // closed here, while the connection waits for the next write
        await waitUntil(seconds: 5) { !writer.abandoned.withLock { $0 }.isEmpty }
        #expect(writer.abandoned.withLock { $0 } == [.clientClosed])
        await waitUntil(seconds: 5) { writer.laterWrite.withLock { $0 } != nil }
        #expect(writer.laterWrite.withLock { $0 } == false)
        await server.shutdown()
    }

    @Test func aShutdownPastItsGraceAbandonsAStreamStillOpen() async throws {
        let writer = Writer()
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 100)) { request in
            writer.respond(request)
        }
        let socket = try HeldSocket(port: server.port)
        socket.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await socket.readUntil("first|", timeoutMs: 5_000).contains("first|"))
        await server.shutdown()  // must not meet the stream's suspended connection
        #expect(writer.abandoned.withLock { $0 } == [.shutdown])
        // The client sees the connection end without the chunked body's last chunk.
        let rest = await socket.readUntilClosed(timeoutMs: 5_000)
        #expect(rest.closed)
        #expect(!rest.text.contains("0\r\n\r\n"))
    }
}
