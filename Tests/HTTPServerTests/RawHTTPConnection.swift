import TestSupport

/// Sends raw bytes to 127.0.0.1 and reads the reply until the server closes the connection. For
/// requests the HTTP client cannot make (announced oversized bodies, chunked uploads, malformed
/// framing).
enum RawHTTPConnection {
    /// The whole reply as text (status line, headers, body). Waits at most `timeoutSeconds`.
    static func exchange(port: Int, request: String, timeoutSeconds: Int = 10) async throws -> String {
        let connection = try HeldSocket(port: port)
        // The server may answer and close before it read everything (early 413): sending stops there.
        connection.send(request)
        return await connection.readUntilClosed(timeoutMs: timeoutSeconds * 1_000).text
    }
}
