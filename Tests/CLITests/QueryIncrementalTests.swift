import Foundation
import TestSupport
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

    /// Issue 16: deferred parts counted against `--max-response-bytes` too. The initial payload
    /// fits, the deferred albums do not: the last line completes the fragment with the error,
    /// none of the albums is printed, and the exit status says no answer was given.
    @Test func deferredPartsOverTheResponseLimitEndWithTheErrorAndExit1() throws {
        let query = Self.write(
            #"{ artist(name: "AC/DC") { name ... @defer { albums(first: 5) { title tracks { title } } } } }"#)
        let run = try CLI.run(["query", "--demo", "--incremental", "--max-response-bytes", "200", query])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first?.hasPrefix(#"{"data":{"artist":{"name":"AC/DC"}},"pending":[{"id":"0","path":["artist"]}]"#)
                == true)
        let last = String(lines.last ?? "")
        #expect(
            last.hasPrefix(#"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"The response is larger"#))
        #expect(last.contains(#""code":"RESPONSE_TOO_LARGE","maximum":200"#))
        #expect(last.contains(#""extensions":{"cost":"#))
        #expect(!run.stdout.contains(#""albums":["#))
        // Within the limit the same query prints its albums and exits 0.
        let whole = try CLI.run(["query", "--demo", "--incremental", query])
        #expect(whole.status == 0)
        #expect(whole.stdout.contains(#""albums":[{"title":"#))
    }

    static func write(_ text: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "incremental-\(UUID().uuidString).graphql")
        try? Data(text.utf8).write(to: url)
        return url.path
    }
}
