import HTTPServer

/// `serve`'s options for slow and idle clients and connection limits (`HTTPServer.Configuration`).
enum ConnectionOptions {
    static let names: Set<String> = [
        "--header-timeout-ms", "--body-timeout-ms", "--idle-timeout-ms", "--max-connections",
        "--max-connections-per-address", "--limit-loopback-connections", "--shutdown-grace-ms",
        "--shutdown-delay-ms", "--admin-port",
    ]

    static let help = """
          --header-timeout-ms N  close a connection whose request head is not in N ms after its accept
                                 (or, kept alive, after its request line) (default 10000; 0 = none)
          --body-timeout-ms N    close a connection whose request body is not in N ms after its head
                                 (default 30000; 0 = none)
          --idle-timeout-ms N    close a kept-alive connection N ms after an answer without a new
                                 request, or when nothing moves on it for N ms rounded up to seconds
                                 (default 30000; 0 = none)
          --max-connections N    connections open at once; later ones wait in the listen backlog
                                 (default 4096; the open-file limit is raised to fit, or serve stops)
          --max-connections-per-address N
                                 connections one client address may hold; more are closed at once
                                 (default 256; 0 = none; loopback clients are exempt unless
                                 --limit-loopback-connections)
          --limit-loopback-connections
                                 apply --max-connections-per-address to 127.0.0.0/8 and ::1 too
          --shutdown-delay-ms N  on SIGTERM, /readyz answers 503 at once; new queries are still
                                 served for N ms (a load balancer's time to notice), then refused
                                 with 503 (default 0)
          --shutdown-grace-ms N  then queries in flight get N ms to finish before their 503
                                 (default 5000)
          --admin-port N         also serve /healthz, /readyz and /metrics on port N, apart from
                                 the main port's connections and limits (0 = any free port)
        """

    /// Reads the options into `configuration`.
    /// - Throws: `CLIError` for a value that is not a non-negative integer, or a zero connection limit.
    static func apply(_ args: CommandLineArguments, to configuration: inout HTTPServer.Configuration) throws(CLIError) {
        if let value = try args.int("--header-timeout-ms") { configuration.headerTimeoutMs = value }
        if let value = try args.int("--body-timeout-ms") { configuration.bodyTimeoutMs = value }
        if let value = try args.int("--idle-timeout-ms") { configuration.idleTimeoutMs = value }
        if let value = try args.int("--max-connections") {
            guard value >= 1 else { throw CLIError("--max-connections must be at least 1") }
            configuration.maxConnections = value
        }
        if let value = try args.int("--max-connections-per-address") { configuration.maxConnectionsPerAddress = value }
        if args.flag("--limit-loopback-connections") { configuration.limitLoopbackConnections = true }
        if let value = try args.int("--shutdown-grace-ms") { configuration.shutdownGraceMs = value }
    }

    /// `--admin-port`: where to serve the health, readiness and metrics paths apart; nil for none.
    static func adminPort(_ args: CommandLineArguments) throws(CLIError) -> Int? {
        guard let port = try args.int("--admin-port") else { return nil }
        guard port <= 65_535 else { throw CLIError("--admin-port must be at most 65535") }
        return port
    }

    /// `--shutdown-delay-ms`: how long a shutdown still serves new requests after `/readyz`
    /// turned 503 (the handler's `shutdownDelayMs`); nil when not given.
    static func shutdownDelayMs(_ args: CommandLineArguments) throws(CLIError) -> Int? {
        try args.int("--shutdown-delay-ms")
    }
}
