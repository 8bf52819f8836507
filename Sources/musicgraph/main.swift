// musicgraph: the CLI. Each command lives in its own file as `run<Name>Command(_:)`,
// returning the process exit status; `commands` below is what `musicgraph help` lists and
// `dispatch` (CommandTable.swift) runs. The contract is ../shared/DESIGN.md "CLI contract".
import Foundation
// Linked for its ThreadSanitizer annotations only (`make tsan` runs this executable too); empty otherwise.
import TSanMutexHandOff

let commands: [Command] = [
    Command(
        name: "format", synopsis: "[FILE]", summary: "print a document in canonical form",
        options: formatOptions, run: runFormatCommand),
    Command(
        name: "validate", synopsis: "[--schema S.graphql] [FILE|DIR...]",
        summary: "validate documents against a schema", options: validateOptions, run: runValidateCommand),
    Command(
        name: "exec",
        synopsis: "[--schema S.graphql] --data ROOT.json [--variables JSON] [--operation NAME] [FILE]",
        summary: "execute over static JSON data", options: execOptions, run: runExecCommand),
    Command(
        name: "schema", synopsis: "[--schema S.graphql] [--json]",
        summary: "print a schema as SDL or its introspection", options: schemaOptions, run: runSchemaCommand),
    Command(
        name: "query", synopsis: "[--demo] [--variables JSON] [--operation NAME] [FILE]",
        summary: "run a query through the gateway, print the response", options: queryOptions,
        run: runQueryCommand),
    Command(
        name: "explain", synopsis: "[--demo] [--variables JSON] [--operation NAME] [FILE]",
        summary: "plan a query's upstream calls, sending none", options: explainOptions, run: runExplainCommand),
    Command(
        name: "serve", synopsis: "[--demo] [--port N] [--upstream URL] [--max-query-cost N]",
        summary: "the gateway over HTTP: /graphql, /healthz, /metrics",
        options: GatewaySetup.options.union(serveOptions).union(ConnectionOptions.names).union(
            OperationLimitOptions.names
        ).union(ClientOptions.names).union(TracingOptions.names), run: runServeCommand),
    Command(
        name: "demo-upstream", synopsis: "[--port N] [--latency-ms N] [--jitter-ms N]",
        summary: "serve the five upstream APIs from the bundled catalog",
        options: ["--host", "--port", "--latency-ms", "--jitter-ms"], run: runDemoUpstreamCommand),
    // For bench/http.sh and bench/http-gateway.sh: unlisted, and they check their own options.
    Command(name: "bench-http", synopsis: nil, summary: "", options: nil, run: runBenchHTTPCommand),
    Command(name: "bench-gqlhttp", synopsis: nil, summary: "", options: nil, run: runBenchGraphQLHTTPCommand),
]

ProcessHygiene.prepare()
exit(dispatch(Array(CommandLine.arguments.dropFirst()), commands: commands))
