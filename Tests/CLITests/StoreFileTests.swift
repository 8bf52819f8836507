import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// `--store sqlite:FILE` across processes: what one `query` or `serve` kept in the file, the next
/// one on the same file finds.
@Suite(.serialized) struct StoreFileTests {
    static let nested = #"{ artist(name: "AC/DC") { name albums(first: 2) { title tracks { title } } } }"#
    /// No configured store, quota or cost limit from the environment the tests run in.
    static let environment = ["MUSICGRAPH_STORE": "", "MUSICGRAPH_DAILY_QUOTA": "", "MUSICGRAPH_MAX_QUERY_COST": ""]

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func extensions(_ response: [String: Any], _ name: String) -> [String: Any] {
        (response["extensions"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    @Test func aSecondDemoQueryOnTheSameStoreFileSendsNothing() throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let store = "sqlite:" + tree.path("store.sqlite")
        // Each run starts its own DemoUpstream on a port of its own: the keys must not carry it.
        let first = try CLI.run(
            ["query", "--demo", "--store", store, "-"], stdin: Self.nested, environment: Self.environment)
        #expect(first.status == 0, "\(first.stderr)")
        let cold = Self.json(first.stdout)
        #expect(cold["errors"] == nil)
        #expect(Self.extensions(cold, "upstream")["requests"] as? Int == 3)
        let second = try CLI.run(
            ["query", "--demo", "--store", store, "-"], stdin: Self.nested, environment: Self.environment)
        #expect(second.status == 0, "\(second.stderr)")
        let warm = Self.json(second.stdout)
        #expect(Self.extensions(warm, "upstream")["requests"] as? Int == 0)
        #expect(Self.extensions(warm, "upstream")["cacheHits"] as? Int == 3)
        #expect((warm["data"] as? NSDictionary) == (cold["data"] as? NSDictionary))
    }

    @Test func aNewProcessReportsTheQuotaSpentTodayOnItsStoreBeforeItSends() throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let arguments = [
            "query", "--demo", "--store", "sqlite:" + tree.path("store.sqlite"), "--daily-quota", "youtube=1000", "-",
        ]
        let search = try CLI.run(
            arguments, stdin: #"{ videos(query: "Thunderstruck", first: 1) { title } }"#, environment: Self.environment)
        #expect(search.status == 0, "\(search.stderr)")
        let spent = Self.extensions(Self.json(search.stdout), "quota")["youtube"] as? [String: Any]
        #expect(spent?["used"] as? Int == 100)
        // A query that sends nothing to YouTube, in a new process: it reports the stored count.
        let other = try CLI.run(arguments, stdin: #"{ artist(name: "AC/DC") { name } }"#, environment: Self.environment)
        #expect(other.status == 0, "\(other.stderr)")
        let reported = Self.extensions(Self.json(other.stdout), "quota")["youtube"] as? [String: Any]
        #expect(reported?["used"] as? Int == 100)
        #expect(reported?["limit"] as? Int == 1000)
    }

    @Test func storeResetNeverOverwritesAnEarlierResetsFile() throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let file = tree.path("store.sqlite")
        for round in 0..<2 {
            // Someone else's file where the store was (the last run's -wal and -shm gone with it).
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            try Data("notes, round \(round)\n".utf8).write(to: URL(fileURLWithPath: file))
            let refused = try CLI.run(
                ["query", "--demo", "--store", "sqlite:" + file, "-"], stdin: Self.nested, environment: Self.environment
            )
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--store-reset"))
            let reset = try CLI.run(
                ["query", "--demo", "--store", "sqlite:" + file, "--store-reset", "-"], stdin: Self.nested,
                environment: Self.environment)
            #expect(reset.status == 0, "\(reset.stderr)")
            let aside = file + (round == 0 ? ".bad" : ".bad.1")
            #expect(reset.stderr.contains("kept it as \(aside)"), "\(reset.stderr)")
        }
        #expect(try String(contentsOfFile: file + ".bad", encoding: .utf8) == "notes, round 0\n")
        #expect(try String(contentsOfFile: file + ".bad.1", encoding: .utf8) == "notes, round 1\n")
        let help = try CLI.run(["serve", "--help"])
        #expect(help.stdout.contains("PATH.bad.1"))
    }

    // MARK: The default store: a file under the user's cache directory for serve and query

    /// The environment of a run without `--store` or `MUSICGRAPH_STORE`, its cache directory `cache`.
    static func defaults(cache: String) -> [String: String] {
        environment.merging(["XDG_CACHE_HOME": cache]) { _, new in new }
    }

    @Test func queryKeepsItsStoreInTheUserCacheDirectoryByDefault() throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let arguments = ["query", "--upstream", demo.url, "-"]
        let first = try CLI.run(arguments, stdin: Self.nested, environment: Self.defaults(cache: tree.path("xdg")))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.extensions(Self.json(first.stdout), "upstream")["requests"] as? Int == 3)
        #expect(FileManager.default.fileExists(atPath: tree.path("xdg/musicgraph/store.sqlite")))
        let second = try CLI.run(arguments, stdin: Self.nested, environment: Self.defaults(cache: tree.path("xdg")))
        #expect(Self.extensions(Self.json(second.stdout), "upstream")["requests"] as? Int == 0)
        // Without XDG_CACHE_HOME (or with a relative one, which the XDG spec says to ignore): ~/.cache.
        let home = try CLI.run(
            arguments, stdin: Self.nested,
            environment: Self.defaults(cache: "relative/cache").merging(["HOME": tree.path("home")]) { _, new in new })
        #expect(home.status == 0, "\(home.stderr)")
        #expect(FileManager.default.fileExists(atPath: tree.path("home/.cache/musicgraph/store.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: "relative/cache"))
    }

    @Test func demoRunsKeepTheirStoreInMemoryByDefault() throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let run = try CLI.run(
            ["query", "--demo", "-"], stdin: Self.nested, environment: Self.defaults(cache: tree.path("xdg")))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tree.path("xdg/musicgraph")))
    }

    @Test func aStoreDirectoryThatCannotBeCreatedIsAClearRefusal() throws {
        let run = try CLI.run(
            ["query", "--upstream", "http://127.0.0.1:9", "-"], stdin: Self.nested,
            environment: Self.defaults(cache: "/proc/musicgraph-nowhere"))
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("/proc/musicgraph-nowhere/musicgraph"), "\(run.stderr)")
        let serve = try CLI.run(
            ["serve", "--port", "0", "--upstream", "http://127.0.0.1:9"],
            environment: Self.defaults(cache: "/proc/musicgraph-nowhere"))
        #expect(serve.status == 2)
        #expect(
            serve.stderr.contains("musicgraph serve: --store sqlite:/proc/musicgraph-nowhere/musicgraph/store.sqlite"))
    }

    // MARK: serve restarted on one store file

    @Test func serveRestartedOnItsStoreFileSendsNothingAgainAndKeepsTheQuotaLedger() async throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let log = tree.path("serve.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        func serve() throws -> CLIChild {
            // Appending: both starts' lines end up in the log.
            let output = FileHandle(forWritingAtPath: log)
            _ = try output?.seekToEnd()
            // No --store: the default file under XDG_CACHE_HOME, which the start-up line names.
            return try CLIChild(
                [
                    "serve", "--port", "0", "--upstream", demo.url, "--daily-quota", "youtube=100000",
                    "--max-query-cost", "0", "--request-timeout-ms", "0",
                ], environment: Self.defaults(cache: tree.path("xdg")).merging(FleetTests.keys) { old, _ in old },
                standardError: output)
        }
        let query = FleetTests.ironMaiden
        var gateway = try serve()
        let cold = try await FleetTests.post(gateway, query)
        #expect(cold["errors"] == nil)
        let sent = try await FleetTests.log(demo).count
        #expect(FleetTests.requests(cold) == sent)
        #expect(sent == 153)
        let spent = (Self.extensions(cold, "quota")["youtube"] as? [String: Any])?["used"] as? Int
        #expect(spent == 150 * 100)
        gateway.stop()

        gateway = try serve()
        defer { gateway.stop() }
        // Before any query: the ledger's stored count is what /metrics shows.
        let metrics = try await HTTPClient().execute(HTTPClientRequest(url: FleetTests.base(gateway) + "/metrics"))
        #expect(
            String(decoding: metrics.body, as: UTF8.self).contains(
                #"musicgraph_upstream_quota_remaining{service="youtube"} 85000"#))
        let warm = try await FleetTests.post(gateway, query)
        #expect(FleetTests.requests(warm) == 0)
        #expect((warm["data"] as? NSDictionary) == (cold["data"] as? NSDictionary))
        #expect(try await FleetTests.log(demo).count == sent)
        #expect((Self.extensions(warm, "quota")["youtube"] as? [String: Any])?["used"] as? Int == spent)
        let lines = try String(contentsOfFile: log, encoding: .utf8)
        let file = tree.path("xdg/musicgraph/store.sqlite")
        #expect(lines.components(separatedBy: "musicgraph serve: store sqlite:\(file)").count == 3, "\(lines)")
    }
}
