import Foundation

/// Where `serve` and `query` keep what outlives a request (`--store`, env `MUSICGRAPH_STORE`):
///
/// - `memory`: this process's memory, gone on exit (the default of `--demo`, `--mock` and
///   `--replay`, whose answers are worth nothing to a later run);
/// - `sqlite:PATH`: an SQLite file shared by the processes of one machine and kept across
///   restarts (the default otherwise, at `$XDG_CACHE_HOME/musicgraph/store.sqlite`, else
///   `~/.cache/musicgraph/store.sqlite`);
/// - `redis://HOST[:PORT][/DB]`: a Redis server shared by a fleet (port 6379 and database 0
///   when left out; an IPv6 host in brackets).
enum StoreLocation: Equatable, CustomStringConvertible {
    case memory
    case sqlite(path: String)
    case redis(host: String, port: Int, database: Int)

    /// The location `text` names.
    /// - Throws: `CLIError` naming the text (with any `user:password@` part masked) and the
    ///   forms that are accepted.
    static func parse(_ text: String) throws(CLIError) -> StoreLocation {
        if text == "memory" { return .memory }
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw refusal(text, "sqlite: needs a file path, e.g. sqlite:/var/cache/mg.db") }
            return .sqlite(path: path)
        }
        if text.hasPrefix("redis://") { return try parseRedis(text) }
        throw refusal(text, "expected memory, sqlite:PATH or redis://HOST:PORT[/DB]")
    }

    private static func parseRedis(_ text: String) throws(CLIError) -> StoreLocation {
        var rest = Substring(text.dropFirst("redis://".count))
        // Credentials would end up in logs and /readyz; the store has no place for them yet.
        guard !rest.contains("@") else {
            throw refusal(text, "credentials in the URL are not supported (use a Redis on a trusted network)")
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let digits = rest[rest.index(after: slash)...]
            guard let number = Int(digits), number >= 0, digits.allSatisfy(\.isASCII) else {
                throw refusal(text, "the database after / must be a non-negative integer")
            }
            database = number
            rest = rest[..<slash]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw refusal(text, "an IPv6 host needs its closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refusal(text, "expected :PORT after the IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw refusal(text, "the host is missing") }
        var port = 6379
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number), portText.allSatisfy(\.isASCII) else {
                throw refusal(text, "the port must be a number from 1 to 65535")
            }
            port = number
        }
        return .redis(host: String(host), port: port, database: database)
    }

    private static func refusal(_ text: String, _ reason: String) -> CLIError {
        CLIError("--store '\(masked(text))' is not a store: \(reason)")
    }

    /// `text` with what sits between `://` and `@` replaced by `***`: never repeat a password.
    static func masked(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
            return text
        }
        return String(text[..<scheme.upperBound]) + "***" + String(text[at...])
    }

    /// The default file store: `$XDG_CACHE_HOME/musicgraph/store.sqlite`, else
    /// `$HOME/.cache/musicgraph/store.sqlite` (XDG Base Directory Specification: a relative
    /// `XDG_CACHE_HOME` is ignored); nil when neither variable gives an absolute directory.
    static func defaultFile(environment: [String: String]) -> StoreLocation? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return .sqlite(path: cache + "/musicgraph/store.sqlite")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return .sqlite(path: home + "/.cache/musicgraph/store.sqlite")
        }
        return nil
    }

    var description: String {
        switch self {
        case .memory: "memory"
        case .sqlite(let path): "sqlite:\(path)"
        case .redis(let host, let port, let database):
            "redis://\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
        }
    }
}
