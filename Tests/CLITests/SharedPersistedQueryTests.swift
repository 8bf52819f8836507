import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// APQ documents live in the shared store: a hash registered with one `serve` process answers
/// hash-only requests of the next process on the same `--store sqlite:` file, and of no process
/// on a store of its own.
@Suite(.serialized) struct SharedPersistedQueryTests {
    static let query = "{ __typename }"
    static let hash = "7f56e67dd21ab3f30d1ff8b7bed08893f0a0db86449836189b361dd1e56ddb4b"
    static let persisted = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#

    static func serve(_ store: String) throws -> CLIChild {
        try CLIChild(["serve", "--demo", "--port", "0", "--store", store], environment: ["MUSICGRAPH_STORE": ""])
    }

    /// The hash-only GET an APQ link sends first (what a CDN can cache).
    static func hashOnly(_ gateway: CLIChild) async throws -> String {
        let extensions = persisted.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let response = try await HTTPClient().execute(
            HTTPClientRequest(url: gateway.url + "?extensions=" + extensions))
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func aHashRegisteredWithOneProcessIsKnownToTheNextOnTheSameStore() async throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let store = "sqlite:" + tree.path("store.sqlite")
        let first = try Self.serve(store)
        let registered = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: first.url, headers: ["Content-Type": "application/json"],
                body: Array(#"{"query":"\#(Self.query)","extensions":\#(Self.persisted)}"#.utf8)))
        #expect(String(decoding: registered.body, as: UTF8.self).contains(#""data":{"__typename":"Query"}"#))
        // The store's write follows the answer (it is not awaited): the first process stays up
        // until the second finds the hash, then the second answers it on its own.
        let second = try Self.serve(store)
        defer { second.stop() }
        var answer = ""
        for _ in 0..<100 {
            answer = try await Self.hashOnly(second)
            if answer.contains(#""data""#) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        first.stop()
        #expect(answer.contains(#""data":{"__typename":"Query"}"#), "\(answer)")

        let alone = try Self.serve("memory")
        defer { alone.stop() }
        let unknown = try await Self.hashOnly(alone)
        #expect(unknown.contains("PERSISTED_QUERY_NOT_FOUND"), "\(unknown)")
    }
}
