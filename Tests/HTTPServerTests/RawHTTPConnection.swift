import Dispatch
import Glibc

/// Sends raw bytes to 127.0.0.1 and reads the reply until the server closes the connection, on a
/// Dispatch thread so the blocking socket never holds a cooperative-pool thread the server's
/// handlers need. For requests the HTTP client cannot make (announced oversized bodies, chunked
/// uploads, malformed framing).
enum RawHTTPConnection {
    enum Failure: Error {
        case socket(String)
    }

    /// The whole reply as text (status line, headers, body). Waits at most `timeoutSeconds`.
    static func exchange(port: Int, request: String, timeoutSeconds: Int = 10) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try exchangeBlocking(port: port, request: Array(request.utf8), timeoutSeconds: timeoutSeconds)
                    })
            }
        }
    }

    private static func exchangeBlocking(port: Int, request: [UInt8], timeoutSeconds: Int) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket("socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure.socket("connect") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before it read everything (early 413): stop sending.
            guard count > 0 else { break }
            sent += count
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            reply.append(contentsOf: buffer[..<count])
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
