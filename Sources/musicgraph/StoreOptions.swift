import RedisStore
import SharedState
import SharedStateSQLite

/// `--store LOCATION` and `--store-reset`, shared by `serve` and `query`: which `SharedStore`
/// the gateway keeps its cache, quota ledger and persisted documents in.
enum StoreOptions {
    static let names: Set<String> = ["--store", "--store-reset"]

    static let help = """
          --store LOCATION       where the cache, the quota ledger and persisted queries live
                                 (env MUSICGRAPH_STORE): memory (this process only), sqlite:PATH
                                 (a file the processes of one machine share, kept across restarts) or
                                 redis://HOST:PORT[/DB] (a fleet). Default: sqlite: a file under
                                 $XDG_CACHE_HOME/musicgraph/ (else ~/.cache/musicgraph/), so a
                                 restart keeps the cache and the day's quota ledger; memory with
                                 --demo, --mock and --replay
          --store-reset          replace a store file that is corrupt or not ours with an empty one;
                                 the old file is kept as PATH.bad, or PATH.bad.1, PATH.bad.2 … when
                                 an earlier one is there (none is overwritten). Without it such a
                                 file is reported and left alone

        """

    /// The location the flags and the environment name, else the default for this run: `memory`
    /// when `throwaway` (`--demo`, `--mock` or `--replay`, whose answers no later run can use),
    /// else the default file (`StoreLocation.defaultFile`).
    /// - Throws: `CLIError` for an unparsable location, naming it, and when there is no default
    ///   file (neither `XDG_CACHE_HOME` nor `HOME` is an absolute path).
    static func location(_ args: CommandLineArguments, environment: [String: String], throwaway: Bool)
        throws(CLIError) -> StoreLocation
    {
        if args.lacksValue("--store") {
            throw CLIError("--store needs a location: memory, sqlite:PATH or redis://HOST:PORT[/DB]")
        }
        if let text = try args.value("--store") ?? environment["MUSICGRAPH_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return try StoreLocation.parse(text)
        }
        if throwaway { return .memory }
        guard let file = StoreLocation.defaultFile(environment: environment) else {
            throw CLIError(
                "no default store file: neither XDG_CACHE_HOME nor HOME is an absolute directory; "
                    + "pass --store sqlite:PATH or --store memory")
        }
        return file
    }

    /// Opens the store at `location`.
    /// - Throws: `CLIError` with the reason the store cannot be used.
    static func open(_ location: StoreLocation, reset: Bool) throws(CLIError) -> any SharedStore {
        switch location {
        case .memory:
            return MemoryStore()
        case .sqlite(let path):
            do {
                let store = try SQLiteStore(path: path, reset: reset)
                if let aside = store.setAside {
                    writeStderr("musicgraph: --store-reset: \(path) was not a store; kept it as \(aside)")
                }
                return store
            } catch {
                throw CLIError("--store \(location): \(error.message)")
            }
        case .redis(let host, let port, let database):
            // Connects on first use: a Redis unreachable now is a degraded start, not a refusal.
            // The breaker: a Redis that hangs costs one timeout, then calls skip it until a probe answers.
            return CircuitBreakerStore(RedisStore(host: host, port: port, database: database))
        }
    }
}
