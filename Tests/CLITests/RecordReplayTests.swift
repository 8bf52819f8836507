import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// `--record DIR` and `--replay DIR`: upstream exchanges written once, answered offline later.
@Suite(.serialized) struct RecordReplayTests {
    static let query = CLI.root.appendingPathComponent("examples/artist-albums-tracks-videos.graphql").path
    static let fixtures = CLI.root.appendingPathComponent("examples/recordings/artist-albums-tracks-videos").path

    /// The response's `data` (parsed), or nil.
    static func data(_ stdout: String) throws -> NSDictionary? {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return object?["data"] as? NSDictionary
    }

    /// DemoUpstream's request log (`GET /__demo/requests`): how many requests it served.
    static func requestCount(_ demo: CLIChild) async throws -> Int {
        let response = try await HTTPClient().execute(HTTPClientRequest(url: demo.url + "/__demo/requests"))
        let log = try JSONSerialization.jsonObject(with: Data(response.body))
        return (log as? [Any])?.count ?? (log as? [String: Any]).flatMap { ($0["requests"] as? [Any])?.count } ?? -1
    }

    @Test func theBundledRecordingOfTheNestedQueryReplaysWithoutTheNetwork() async throws {
        let live = try CLI.run(["query", "--demo", Self.query])
        #expect(live.status == 0)
        // Nothing listens where the providers point: any upstream call would fail.
        let replayed = try CLI.run(["query", "--replay", Self.fixtures, "--upstream", "http://127.0.0.1:9", Self.query])
        #expect(replayed.status == 0)
        #expect(!replayed.stdout.contains("\"errors\""))
        let liveData = try #require(try Self.data(live.stdout))
        #expect(try Self.data(replayed.stdout) == liveData, "the fixtures are stale: run `make recordings`")

        // With a DemoUpstream listening where the providers point, it is asked nothing.
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let again = try CLI.run(["query", "--replay", Self.fixtures, "--upstream", demo.url, Self.query])
        #expect(try Self.data(again.stdout) == liveData)
        #expect(try await Self.requestCount(demo) == 0)
    }

    @Test func aRecordingHoldsNoSecretInAnyFormAndReplaysTheSameData() async throws {
        // Canaries with the characters that encodings change: " / \ + = % and a space.
        let canaries = [
            "YOUTUBE_API_KEY": #"canaryYT"/\+=% 5f1d"#, "TMDB_API_KEY": "canaryTMDB+a93e/77=",
            "APPLE_MUSIC_TOKEN": #"canaryAM"c2d9\f0"#, "RAKUTEN_APP_ID": "canaryRK%0b44 e1",
            "RAKUTEN_ACCESS_KEY": "canaryRKA=9d/2",
        ]
        let tree = try TemporaryTree(text: [
            "movies.graphql": #"{ movies(query: "Alien", first: 2) { title videos(first: 1) { url } } }"#
        ])
        defer { tree.remove() }
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        var recorded: ProcessRun
        do {
            defer { demo.stop() }
            recorded = try CLI.run(
                ["query", "--record", "rec", "--upstream", demo.url, Self.query], in: tree.url, environment: canaries)
            #expect(recorded.status == 0)
            let movies = try CLI.run(
                ["query", "--record", "rec", "--upstream", demo.url, "movies.graphql"], in: tree.url,
                environment: canaries)
            #expect(movies.status == 0)
            #expect(!movies.stdout.contains("\"errors\""))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: tree.path("rec"))
        #expect(files.count > 20)
        #expect(files.allSatisfy { $0.hasSuffix(".json") })
        for file in files {
            let text = try String(contentsOfFile: tree.path("rec/\(file)"), encoding: .utf8)
            for canary in canaries.values {
                let forms = [
                    canary, canary.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? canary,
                    Data(canary.utf8).base64EncodedString(),
                    String(
                        decoding: try JSONSerialization.data(withJSONObject: canary, options: .fragmentsAllowed),
                        as: UTF8.self
                    ).dropFirst().dropLast().description,
                ]
                for form in forms { #expect(!text.contains(form), "\(file) holds a secret: \(form)") }
            }
        }
        // DemoUpstream is stopped; the replay needs no key either.
        let replayed = try CLI.run(
            ["query", "--replay", "rec", "--upstream", "http://127.0.0.1:9", Self.query], in: tree.url)
        #expect(replayed.status == 0)
        #expect(try Self.data(replayed.stdout) == Self.data(recorded.stdout))
    }

    @Test func anUnrecordedCallFailsLoudlyWithTheRequestAndTheRestResolves() throws {
        let tree = try TemporaryTree(text: [
            "two.graphql": #"{ artist(name: "AC/DC") { name } other: artist(name: "Queen") { name } }"#
        ])
        defer { tree.remove() }
        let run = try CLI.run(["query", "--replay", Self.fixtures, "two.graphql"], in: tree.url)
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("musicgraph query: itunes has no recorded exchange for GET /search?term=Queen&"))
        let response = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((response["data"] as? [String: Any])?["artist"] as? [String: String] == ["name": "AC/DC"])
        #expect((response["data"] as? [String: Any])?["other"] is NSNull)
        let error = try #require((response["errors"] as? [[String: Any]])?.first)
        let extensions = try #require(error["extensions"] as? [String: Any])
        #expect(extensions["code"] as? String == "UPSTREAM_NOT_RECORDED")
        #expect(extensions["service"] as? String == "itunes")
        #expect(error["path"] as? [String] == ["other"])
        let message = try #require(error["message"] as? String)
        #expect(message.hasPrefix("itunes has no recorded exchange for GET /search?term=Queen&"))
    }

    @Test func unusableRecordingsStopTheStartNamingTheFile() throws {
        let tree = try TemporaryTree(text: ["q.graphql": #"{ artist(name: "AC/DC") { name } }"#])
        defer { tree.remove() }
        try FileManager.default.copyItem(atPath: Self.fixtures, toPath: tree.path("rec"))
        let victim = try #require(try FileManager.default.contentsOfDirectory(atPath: tree.path("rec")).sorted().first)
        try Data("{\"key\": \"/x\", \"status\": 200".utf8).write(to: tree.url.appendingPathComponent("rec/\(victim)"))
        let corrupt = try CLI.run(["query", "--replay", "rec", "q.graphql"], in: tree.url)
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("recordings: rec/\(victim): not JSON"))
        #expect(corrupt.stdout.isEmpty)

        try FileManager.default.createDirectory(
            at: tree.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try CLI.run(["query", "--replay", "empty", "q.graphql"], in: tree.url)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("empty: holds no recordings"))
        let missing = try CLI.run(["query", "--replay", "nowhere", "q.graphql"], in: tree.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere: cannot read the recording directory"))
        let both = try CLI.run(["query", "--replay", "rec", "--record", "out", "q.graphql"], in: tree.url)
        #expect(both.status == 2)
        #expect(both.stderr.contains("--record and --replay cannot be combined"))
    }
}
