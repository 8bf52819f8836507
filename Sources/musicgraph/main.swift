// musicgraph: the CLI. Each command lives in its own file as `run<Name>Command(_:)`,
// returning the process exit status. The contract is ../shared/DESIGN.md "CLI contract".
import Foundation
// Linked for its ThreadSanitizer annotations only (`make tsan` runs this executable too); empty otherwise.
import TSanMutexHandOff

let commands: [String: (CommandLineArguments) -> Int32] = [
    "format": runFormatCommand,
    "validate": runValidateCommand,
    "exec": runExecCommand,
    "schema": runSchemaCommand,
    "demo-upstream": runDemoUpstreamCommand,
    "query": runQueryCommand,
    "serve": runServeCommand,
    "bench-http": runBenchHTTPCommand,  // hidden: bench/http.sh
    "bench-gqlhttp": runBenchGraphQLHTTPCommand,  // hidden: bench/http-gateway.sh
]

let usage = """
    usage: musicgraph <command> [options]

    commands:
      format [FILE]                           print a document in canonical form
      validate --schema S.graphql [FILE]      validate a document against a schema
      exec --schema S.graphql --data ROOT.json [--variables JSON] [--operation NAME] [FILE]
                                              execute over static JSON data
      schema --schema S.graphql [--json]      print a schema as SDL or its introspection
      query [--demo] [--variables JSON] [--operation NAME] [FILE]
                                              run a query through the gateway, print the response
      serve [--demo] [--port N] [--upstream URL] [--max-query-cost N]
                                              the gateway over HTTP: /graphql, /healthz, /metrics
      demo-upstream [--port N] [--latency-ms N] [--jitter-ms N]
                                              serve the five upstream APIs from the bundled catalog

    Run `musicgraph <command> --help` for a command's options.
    """

ProcessHygiene.prepare()
var argv = Array(CommandLine.arguments.dropFirst())
guard let name = argv.first, name != "--help", name != "-h" else {
    print(usage)
    exit(argv.isEmpty ? 2 : 0)
}
guard let command = commands[name] else {
    writeStderr("musicgraph: unknown command '\(name)'\n\n\(usage)")
    exit(2)
}
argv.removeFirst()
exit(command(CommandLineArguments(argv)))
