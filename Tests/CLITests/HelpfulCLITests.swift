import Foundation
import TestSupport
import Testing

/// What the CLI tells someone finding their way: its version, its commands, the name they
/// probably meant, the gateway's schema without `--schema`, and whether `query` got a whole answer.
@Suite struct HelpfulCLITests {
    static let example = CLI.root.appendingPathComponent("examples/artist-albums-tracks-videos.graphql").path

    @Test func versionNamesTheVersionAndTheCommit() throws {
        for spelling in ["--version", "version"] {
            let run = try CLI.run([spelling])
            #expect(run.status == 0, "\(spelling): \(run.stderr)")
            #expect(run.stdout.wholeMatch(of: /musicgraph \d+\.\d+\.\d+ \([^)\n]+\)\n/) != nil, "\(run.stdout)")
        }
    }

    @Test func helpListsTheCommandsOrPrintsOnesOptions() throws {
        let list = try CLI.run(["help"])
        #expect(list.status == 0)
        #expect(list.stdout.hasPrefix("usage: musicgraph <command> [options]\n"))
        for command in ["format", "validate", "exec", "schema", "query", "serve", "demo-upstream", "help"] {
            #expect(list.stdout.contains("\n  \(command) "), "\(command) is not listed")
        }
        let serve = try CLI.run(["help", "serve"])
        #expect(serve.status == 0)
        #expect(serve.stdout == (try CLI.run(["serve", "--help"])).stdout)
        #expect(serve.stdout.hasPrefix("usage: musicgraph serve "))
        let unknown = try CLI.run(["help", "servre"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "musicgraph help: unknown command 'servre'; did you mean 'serve'?\n")
    }

    @Test func aMistypedCommandOrOptionNamesTheNearestOne() throws {
        let command = try CLI.run(["servre"])
        #expect(command.status == 2)
        #expect(command.stderr == "musicgraph: unknown command 'servre'; did you mean 'serve'?\n")
        let option = try CLI.run(["serve", "--prot", "1"])
        #expect(option.status == 2)
        #expect(option.stderr == "musicgraph serve: unknown option --prot; did you mean --port?\n")
        // A beginning that only one option has.
        let prefix = try CLI.run(["query", "--demo", "--increm", Self.example])
        #expect(prefix.status == 2)
        #expect(prefix.stderr == "musicgraph query: unknown option --increm; did you mean --incremental?\n")
        // Nothing near: the old message.
        let far = try CLI.run(["format", "--colour"])
        #expect(far.stderr == "musicgraph format: unknown option --colour; see --help\n")
    }

    /// In a directory without schema.graphql, as after `make install`.
    @Test func validateExecAndSchemaDefaultToTheBuiltInSchema() throws {
        let elsewhere = try TemporaryTree(text: [:])
        defer { elsewhere.remove() }
        let validate = try CLI.run(["validate", Self.example], in: elsewhere.url)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout == "{\"errors\":[]}\n")

        let schema = try CLI.run(["schema"], in: elsewhere.url)
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout == (try CLI.run(["schema", "--schema", CLI.schemaPath])).stdout)
        #expect(schema.stdout.contains("type Query {"))

        let exec = try CLI.run(["exec", "--mock", "--seed", "1", Self.example], in: elsewhere.url)
        #expect(exec.status == 0, "\(exec.stderr)")
        #expect(exec.stdout.hasPrefix("{\"data\":{\"artist\":{"))
    }

    /// As serve: a schema.graphql in the working directory wins over the built-in one.
    @Test func validateWithoutSchemaReadsTheWorkingDirectorysSchema() throws {
        let tree = try TemporaryTree(text: ["schema.graphql": "type Query { hello: String }\n"])
        defer { tree.remove() }
        let run = try CLI.run(["validate", Self.example], in: tree.url)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Cannot query field \\\"artist\\\" on type \\\"Query\\\"."), "\(run.stdout)")
    }

    @Test func queryWithFieldErrorsExitsFour() throws {
        let run = try CLI.run(["query", "--upstream", "http://127.0.0.1:9", "--store", "memory", Self.example])
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stdout.contains("\"code\":\"UPSTREAM_UNREACHABLE\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"data\":{\"artist\":null}"), "\(run.stdout)")
        let help = try CLI.run(["query", "--help"])
        #expect(help.stdout.contains("4  answered with field errors"))
    }
}
