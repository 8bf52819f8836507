import Foundation

/// A `redis-server` of the test's own on a free loopback port, without persistence
/// (`--save '' --appendonly no`), stopped when the test ends. Tests that need one are
/// skipped, saying so, only when the binary is not installed (`.ci/run` installs it).
public final class RedisServer: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `restart`, which tests call from one task.
    public static let binary: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    public static let missing = "redis-server is not installed (Debian: apt-get install redis-server)"

    public let port: Int
    private var process: Process

    public init() throws {
        port = try Self.freePort()
        process = try Self.launch(port: port)
        try waitUntilListening()
    }

    deinit {
        stop()
    }

    /// Kills the server (SIGKILL: what a crash looks like to its clients) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Stops the server for `SIGSTOP`-style slowness tests: it keeps its socket but answers nothing.
    public func pause() { kill(process.processIdentifier, SIGSTOP) }
    public func resume() { kill(process.processIdentifier, SIGCONT) }

    /// Starts a fresh, empty server on the same port.
    public func restart() throws {
        stop()
        process = try Self.launch(port: port)
        try waitUntilListening()
    }

    private static func launch(port: Int) throws -> Process {
        guard let binary else { throw RedisServerError(missing) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
            "--loglevel", "warning",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func waitUntilListening() throws {
        for _ in 0..<500 {
            if Self.accepts(port: port) { return }
            usleep(10_000)
        }
        throw RedisServerError("redis-server did not listen on port \(port) within 5 s")
    }

    private static func accepts(port: Int) -> Bool {
        guard let probe = try? HeldSocket(port: port) else { return false }
        probe.close()
        return true
    }

    /// A port the kernel just gave out (bound to 0, then closed).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RedisServerError("socket() failed") }
        defer { close(fd) }
        guard withIPv4Address(port: 0, { bind(fd, $0, $1) }) == 0 else { throw RedisServerError("bind() failed") }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public struct RedisServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs `redis-cli` against `server`; its standard output.
public func redisCLI(_ server: RedisServer, _ arguments: [String]) throws -> String {
    try runProcess(
        URL(fileURLWithPath: "/usr/bin/redis-cli"), ["-h", "127.0.0.1", "-p", String(server.port)] + arguments
    ).stdout
}
