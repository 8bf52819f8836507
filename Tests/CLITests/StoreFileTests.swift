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
}
