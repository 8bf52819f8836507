import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// `--mock`: `exec` and `serve` answering from schema.graphql alone, deterministically.
@Suite struct MockCommandTests {
    static var example: String {
        CLI.root.appendingPathComponent("examples/artist-albums-tracks-videos.graphql").path
    }

    @Test func theSameSeedGivesByteIdenticalOutputOnTwoRuns() throws {
        let first = try CLI.run(["exec", "--schema", CLI.schemaPath, "--mock", "--seed", "7", Self.example])
        let second = try CLI.run(["exec", "--schema", CLI.schemaPath, "--mock", "--seed", "7", Self.example])
        let other = try CLI.run(["exec", "--schema", CLI.schemaPath, "--mock", "--seed", "8", Self.example])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix(#"{"data":{"artist":{"name":"AC/DC","#))
        #expect(!first.stdout.contains("\"errors\""))
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
    }

    @Test func mockValuesPinWhatATestAssertsOn() throws {
        let tree = try TemporaryTree(text: [
            "values.json":
                #"{"Album.title": "Back in Black", "Album.tracks": [{"title": "Hells Bells", "durationMs": 312000}]}"#,
            "query.graphql":
                #"{ artist(name: "AC/DC") { albums(first: 1) { title tracks { title durationMs trackNumber } } } }"#,
        ])
        defer { tree.remove() }
        let run = try CLI.run(
            ["exec", "--schema", CLI.schemaPath, "--mock", "--mock-values", "values.json", "query.graphql"],
            in: tree.url)
        #expect(run.status == 0)
        #expect(
            run.stdout
                == #"{"data":{"artist":{"albums":[{"title":"Back in Black","tracks":[{"title":"Hells Bells","durationMs":312000,"trackNumber":1}]}]}}}"#
                + "\n")
    }

    @Test func badMockOptionsAreUsageErrors() throws {
        let tree = try TemporaryTree(text: [
            "unknown.json": #"{"Album.popularity": 3}"#, "broken.json": "{",
            "query.graphql": "{ albums(term: \"x\") { title } }",
        ])
        defer { tree.remove() }
        let unknown = try CLI.run(
            ["exec", "--schema", CLI.schemaPath, "--mock", "--mock-values", "unknown.json", "query.graphql"],
            in: tree.url)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "musicgraph exec: unknown.json: 'Album.popularity': Album has no field popularity\n")
        let broken = try CLI.run(
            ["exec", "--schema", CLI.schemaPath, "--mock", "--mock-values", "broken.json", "query.graphql"],
            in: tree.url)
        #expect(broken.status == 2)
        #expect(broken.stderr.hasPrefix("musicgraph exec: broken.json: "))
        let seedAlone = try CLI.run(["exec", "--schema", CLI.schemaPath, "--seed", "3", "query.graphql"], in: tree.url)
        #expect(seedAlone.status == 2)
        #expect(seedAlone.stderr == "musicgraph exec: --seed and --mock-values need --mock\n")
        let badSeed = try CLI.run(
            ["exec", "--schema", CLI.schemaPath, "--mock", "--seed", "-1", "query.graphql"], in: tree.url)
        #expect(badSeed.status == 2)
    }

    @Test func serveMockAnswersOverHTTPWithoutAnUpstream() async throws {
        // No upstream anywhere: every provider points at a port nobody listens on.
        let server = try CLIChild(
            [
                "serve", "--mock", "--seed", "7", "--port", "0", "--schema", CLI.schemaPath, "--upstream",
                "http://127.0.0.1:9",
            ])
        defer { server.stop() }
        #expect(server.url.hasPrefix("http://127.0.0.1:"))
        let query = try String(contentsOfFile: Self.example, encoding: .utf8)
        var body = #"{"query":"#
        body += String(
            decoding: try JSONSerialization.data(withJSONObject: query, options: .fragmentsAllowed), as: UTF8.self)
        body += "}"
        let client = HTTPClient()
        let response = try await client.execute(
            HTTPClientRequest(
                method: .post, url: server.url, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        #expect(response.status.code == 200)
        let text = String(decoding: response.body, as: UTF8.self)
        let exec = try CLI.run(["exec", "--schema", CLI.schemaPath, "--mock", "--seed", "7", Self.example])
        // The same data as `exec --mock --seed 7`, then the gateway's extensions: no upstream request.
        let data = String(exec.stdout.dropLast().dropLast())
        #expect(text.hasPrefix(data))
        #expect(text.contains(#""upstream":{"requests":0,"cacheHits":0,"deduplicated":0}"#))
    }
}
