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
