import TestSupport
import Testing

/// A value flag given last with no value is a usage error naming it, never its default.
@Suite struct MissingValueTests {
    @Test func aTrailingValueFlagExits2NamingIt() throws {
        let serve = try CLI.run(["serve", "--demo", "--port"])
        #expect(serve.status == 2)
        #expect(serve.stderr == "musicgraph serve: --port needs a value (a non-negative integer)\n")
        let query = try CLI.run(
            ["query", "--demo", QueryIncrementalTests.write("{ __typename }"), "--max-query-cost"])
        #expect(query.status == 2)
        #expect(query.stderr == "musicgraph query: --max-query-cost needs a value (a non-negative integer)\n")
        let exec = try CLI.run(["format", "--repeat"], stdin: "{ a }")
        #expect(exec.status == 2)
        #expect(exec.stderr.contains("--repeat needs a value"))
    }
}

/// The same for string-valued flags: every value read goes through the one check.
@Suite struct MissingStringValueTests {
    @Test func aTrailingStringFlagExits2NamingIt() throws {
        let file = QueryIncrementalTests.write("{ __typename }")
        for (arguments, message) in [
            (["serve", "--demo", "--upstream"], "musicgraph serve: --upstream needs a value\n"),
            (["serve", "--demo", "--host"], "musicgraph serve: --host needs a value\n"),
            (["query", "--demo", file, "--upstream"], "musicgraph query: --upstream needs a value\n"),
            (["query", "--demo", file, "--operation"], "musicgraph query: --operation needs a value\n"),
            (["query", "--demo", file, "--variables"], "musicgraph query: --variables needs a value\n"),
            (["exec", "--schema"], "musicgraph exec: --schema needs a value\n"),
            (["validate", "--schema"], "musicgraph validate: --schema needs a value\n"),
            (["schema", "--schema"], "musicgraph schema: --schema needs a value\n"),
            (["demo-upstream", "--host"], "musicgraph demo-upstream: --host needs a value\n"),
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasSuffix(message), "\(arguments): \(run.stderr)")
        }
        // A flag with a message of its own keeps it; still exit 2, naming the flag.
        let store = try CLI.run(["serve", "--demo", "--store"])
        #expect(store.status == 2)
        #expect(
            store.stderr.hasSuffix(
                "musicgraph serve: --store needs a location: memory, sqlite:PATH or redis://HOST:PORT[/DB]\n"))
    }
}
