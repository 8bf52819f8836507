import Foundation
import TestSupport
import Testing

/// Every GraphQL query, curl and CLI example of README.md, docs/*.md and examples/*.graphql
/// answers on the demo catalog, or is marked as not run or as an expected error.
@Suite(.serialized) struct DocExamplesTests {
    static func text(_ relative: String) throws -> String {
        try String(contentsOf: CLI.root.appendingPathComponent(relative), encoding: .utf8)
    }

    static func files(_ directory: String, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent(directory).path)
            .filter { $0.hasSuffix(suffix) }.sorted().map { directory + "/" + $0 }
    }

    @Test func everyExampleOfTheDocsAnswersOnTheDemoCatalog() async throws {
        let runner = try DocExampleRunner()
        defer { runner.stop() }
        var report = DocExampleReport()
        for file in try ["README.md"] + Self.files("docs", ending: ".md") {
            report.add(await runner.check(markdown: try Self.text(file), file: file))
        }
        for file in try Self.files("examples", ending: ".graphql") {
            report.add(await runner.check(graphqlFile: try Self.text(file), file: file))
        }
        #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
        // Nothing found would pass too: the docs hold more than a dozen examples.
        #expect(report.found >= 15, "found \(report.found)")
        #expect(report.run >= 15, "ran \(report.run)")
        print(
            "doc examples: \(report.found) found, \(report.run) queries and commands run, "
                + "\(report.notRun.count) not run: \(report.notRun.joined(separator: "; "))")
    }

    /// The checker itself: a broken example planted in a copy of the docs fails.
    @Test func aPlantedArtistTheDemoDoesNotHoldFails() async throws {
        let runner = try DocExampleRunner()
        defer { runner.stop() }
        let readme = try Self.text("README.md")
        #expect(await runner.check(markdown: readme, file: "README.md").failures.isEmpty)

        let planted = readme.replacingOccurrences(of: #"artist(name: "Accept")"#, with: #"artist(name: "Daft Punk")"#)
        #expect(planted != readme)
        let query = await runner.check(markdown: planted, file: "README.md")
        #expect(query.failures.count == 1)
        #expect(query.failures.first?.contains("data.artist is null") == true, "\(query.failures)")

        let curl = """
            ```sh
            curl -s localhost:8080/graphql -H 'Content-Type: application/json' \\
              -d '{"query":"{ artist(name: \\"Daft Punk\\") { name albums(first: 3) { title } } }"}'
            ```
            """
        let curlReport = await runner.check(markdown: curl, file: "planted.md")
        #expect(curlReport.run == 1)
        #expect(curlReport.failures.first?.contains("data.artist is null") == true, "\(curlReport.failures)")

        let command = """
            ```sh
            musicgraph query --demo --variables '{"name":"Daft Punk"}' examples/artist.graphql
            ```
            """
        let commandReport = await runner.check(markdown: command, file: "planted.md")
        #expect(commandReport.failures.contains { $0.contains("data.artist is null") }, "\(commandReport.failures)")
        #expect(commandReport.failures.contains { $0.contains("exit status 4") } == false)

        let search = """
            ```graphql
            { albums(term: "daft punk", first: 3) { title } }
            ```
            """
        let searchReport = await runner.check(markdown: search, file: "planted.md")
        #expect(searchReport.failures.first?.contains("data.albums is []") == true, "\(searchReport.failures)")

        // Marked, the same block is not run.
        let marked = await runner.check(markdown: "<!-- example: not run (real API keys) -->\n" + curl, file: "m.md")
        #expect(marked.failures.isEmpty && marked.run == 0 && marked.notRun.count == 1, "\(marked)")
    }

    @Test func unmarkedBlocksThatCannotRunAndWrongMarkersFail() async throws {
        let runner = try DocExampleRunner()
        defer { runner.stop() }
        let sdl = """
            ```graphql
            tracks: [Track!] @cost(weight: 1) @listSize(assumedSize: 15)
            ```
            """
        #expect(await runner.check(markdown: sdl, file: "a.md").failures.count == 1)
        #expect(await runner.check(markdown: "<!-- example: not run (SDL) -->\n" + sdl, file: "a.md").failures.isEmpty)

        let fleet = "```sh\nmake fleet\ncurl -s localhost:8101/readyz\n```"
        #expect(await runner.check(markdown: fleet, file: "b.md").failures.count == 2)

        // An announced error must happen, and then it is no failure.
        let expensive = """
            <!-- example: expect error QUERY_COST_EXCEEDED -->
            ```graphql
            { artists(name: "Iron Maiden", first: 50) { albums { tracks { videos { title } } } } }
            ```
            """
        let refused = await runner.check(markdown: expensive, file: "c.md")
        #expect(refused.failures.isEmpty, "\(refused.failures)")
        let cheap = expensive.replacingOccurrences(
            of: "first: 50) { albums { tracks { videos { title } } } }", with: "first: 1) { name }")
        let answered = await runner.check(markdown: cheap, file: "c.md")
        #expect(answered.failures.first?.contains("answered no such error") == true, "\(answered.failures)")

        let stray =
            "<!-- example: not run (why) -->\n\nSome text.\n\n```graphql\n{ artist(name: \"U2\") { name } }\n```"
        #expect(await runner.check(markdown: stray, file: "d.md").failures.count == 1)
        let reasonless = "<!-- example: not run -->\n```graphql\n{ artist(name: \"U2\") { name } }\n```"
        #expect(await runner.check(markdown: reasonless, file: "d.md").failures.count == 1)
    }

    @Test func anExampleFileWithSeveralOperationsMustRunEach() {
        let file = """
            # musicgraph query --demo --operation A examples/x.graphql
            query A { artist(name: "U2") { name } }
            query B { artist(name: "Queen") { name } }
            """
        let (examples, problems) = DocExamples.examples(graphqlFile: file, file: "examples/x.graphql")
        #expect(examples.count == 1 && examples.first?.kind == .shell)
        #expect(problems == ["examples/x.graphql: no `# musicgraph …` line runs operation B"])
    }

    @Test func answersFailOnNullsEmptyListsAndErrorsTheTextDoesNotAnnounce() {
        #expect(DocExamples.problems(output: #"{"data":{"artist":{"name":"U2"}}}"#, status: 0, announced: []) == [])
        #expect(
            DocExamples.problems(output: #"{"data":{"artist":null}}"#, status: 0, announced: [])
                == ["data.artist is null"])
        #expect(
            DocExamples.problems(output: #"{"data":{"albums":[]}}"#, status: 0, announced: [])
                == ["data.albums is []"])
        let notFound =
            #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#
        #expect(DocExamples.problems(output: notFound, status: 0, announced: ["PERSISTED_QUERY_NOT_FOUND"]) == [])
        #expect(DocExamples.problems(output: notFound, status: 0, announced: []).count == 1)
        #expect(DocExamples.problems(output: "", status: 0, announced: []) == ["no output"])
        #expect(
            DocExamples.problems(output: "HTTP/1.1 405 Method Not Allowed\r\n", status: 0, announced: []).count == 1)
        let command = DocExamples.commands(shell: "curl -s x \\\n  -d '{\"a\":\"# b\"}'   # runs it by hash")
        #expect(command.count == 1)
        #expect(command.first?.comment == " runs it by hash")
        #expect(
            DocExamples.commands(shell: "curl x  # PERSISTED_QUERY_NOT_FOUND").first?.announced == [
                "PERSISTED_QUERY_NOT_FOUND"
            ])
    }
}
