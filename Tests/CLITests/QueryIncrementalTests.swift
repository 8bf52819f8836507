import Foundation
import Testing

/// `musicgraph query --incremental`: the payloads of a deferred query as JSON Lines.
@Suite struct QueryIncrementalTests {
    @Test func aDeferredQueryPrintsOneJSONLinePerPayload() throws {
        let query = Self.write(
            #"{ artist(name: "AC/DC") { name albums(first: 2) { title tracks { title ... @defer { videos(first: 1) { title } } } } } }"#
        )
        let run = try CLI.run(["query", "--demo", "--incremental", query])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map { Data($0.utf8) }
        let payloads = try lines.map { try #require(try JSONSerialization.jsonObject(with: $0) as? [String: Any]) }
        #expect(payloads.count >= 2)
        let first = try #require(payloads.first)
        #expect(first["hasNext"] as? Bool == true)
        let pending = try #require(first["pending"] as? [Any])
        #expect(!pending.isEmpty)
        #expect(!run.stdout.split(separator: "\n")[0].contains("\"videos\""))
        let last = try #require(payloads.last)
        #expect(last["hasNext"] as? Bool == false)
        #expect(last["extensions"] != nil)
        // Every pending fragment is delivered and completed, once.
        let delivered = payloads.dropFirst().flatMap { ($0["incremental"] as? [[String: Any]]) ?? [] }
        let completed = payloads.dropFirst().flatMap { ($0["completed"] as? [[String: Any]]) ?? [] }
        #expect(delivered.count == pending.count)
        #expect(completed.count == pending.count)
        #expect(delivered.allSatisfy { (($0["data"] as? [String: Any])?["videos"] as? [Any])?.count == 1 })
    }

    @Test func withoutDeferTheAnswerIsOneOrdinaryLine() throws {
        let run = try CLI.run(["query", "--demo", "--incremental", Self.write(#"{ artist(name: "AC/DC") { name } }"#)])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(run.stdout.hasPrefix(#"{"data":{"artist":{"name":"AC/DC"}}"#))
    }

    static func write(_ text: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "incremental-\(UUID().uuidString).graphql")
        try? Data(text.utf8).write(to: url)
        return url.path
    }
}
