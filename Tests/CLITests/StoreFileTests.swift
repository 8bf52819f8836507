import Foundation
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
}
