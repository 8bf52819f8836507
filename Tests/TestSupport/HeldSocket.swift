import Dispatch
import Glibc
import Synchronization

/// A loopback TCP connection a test keeps open and feeds by hand, like a slow, idle or raw
/// client: for what the HTTP client cannot send (unfinished heads, malformed framing) or a
/// client that hangs up. Blocking calls run on a Dispatch thread so that they never hold a
/// cooperative-pool thread. Closed by `close()` or when released.
public final class HeldSocket: @unchecked Sendable {
    // @unchecked Sendable: `fd` is immutable; each call uses the socket from one thread at a time.
    public let fd: Int32
    private let open = Atomic<Bool>(true)

    public enum Failure: Error {
        case socket(String)
    }

    /// Connects to 127.0.0.1:`port` (or `address`).
    public init(port: Int, address: UInt32 = 0x7F00_0001) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket("socket") }
        let connected = withIPv4Address(port: port, address: address) { connect(fd, $0, $1) }
        guard connected == 0 else {
            Glibc.close(fd)
            throw Failure.socket("connect")
        }
    }

    deinit { close() }

    /// Closes the connection (at once, whatever the server still sends); later calls do nothing.
    public func close() {
        if open.exchange(false, ordering: .relaxed) { Glibc.close(fd) }
    }

    /// Sends `text`; false when the server closed the connection before it was all sent.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads until the server closes the connection or `timeoutMs` passes: what arrived, and
    /// whether the server closed the connection within the time.
    public func readUntilClosed(timeoutMs: Int) async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.readBlocking(timeoutMs: timeoutMs, stopAfterResponse: false))
            }
        }
    }

    /// Reads one response (until the headers' blank line and `Content-Length` bytes) or until
    /// the server closes the connection or `timeoutMs` passes.
    public func readResponse(timeoutMs: Int) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.readBlocking(timeoutMs: timeoutMs, stopAfterResponse: true).text)
            }
        }
    }

    /// Reads until what arrived contains `marker`, the server closes the connection or
    /// `timeoutMs` passes; returns what arrived.
    public func readUntil(_ marker: String, timeoutMs: Int) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: self.readBlocking(timeoutMs: timeoutMs, stopAfterResponse: false, marker: marker).text)
            }
        }
    }

    private func readBlocking(timeoutMs: Int, stopAfterResponse: Bool, marker: String? = nil) -> (
        text: String, closed: Bool
    ) {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var remainingMs = timeoutMs
        while remainingMs > 0 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let slice = min(remainingMs, 50)
            remainingMs -= slice
            guard poll(&poller, 1, Int32(slice)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: reply, as: UTF8.self), true) }
            reply.append(contentsOf: buffer[..<count])
            if stopAfterResponse, Self.isCompleteResponse(reply) { break }
            if let marker, String(decoding: reply, as: UTF8.self).contains(marker) { break }
        }
        return (String(decoding: reply, as: UTF8.self), false)
    }

    private static func isCompleteResponse(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
        return text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length
    }
}

/// Calls `body` with the IPv4 socket address `address`:`port` (127.0.0.1 by default) and its size.
func withIPv4Address<T>(
    port: Int, address: UInt32 = 0x7F00_0001, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
) -> T {
    var peer = sockaddr_in()
    peer.sin_family = sa_family_t(AF_INET)
    peer.sin_port = UInt16(port).bigEndian
    peer.sin_addr.s_addr = address.bigEndian
    return withUnsafePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
