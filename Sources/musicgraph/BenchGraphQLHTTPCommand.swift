import Dispatch
import Foundation
import GraphQL
import GraphQLHTTP
import Synchronization

/// `musicgraph bench-gqlhttp serve [--port N] [--log none]` (hidden; driven by bench/http-gateway.sh):
/// the GraphQLHTTP stack (negotiation, document cache, execution, metrics, one log line per
/// request to stderr unless `--log none`) over a small static catalog schema, without upstreams,
/// so the benchmark measures the HTTP + GraphQL layer alone. Prints `port N` on stdout once
/// listening, then serves until SIGINT/SIGTERM and shuts down gracefully.
func runBenchGraphQLHTTPCommand(_ args: CommandLineArguments) -> Int32 {
  let unknown = args.unknown(allowed: ["--port", "--log"])
  guard unknown.isEmpty, args.positionals.first == "serve" else {
    return fail("bench-gqlhttp", CLIError("usage: bench-gqlhttp serve [--port N] [--log stderr|none]"))
  }
  let schema: Schema
  let root: JSONValue
  do {
    schema = try buildSchema(sdl: benchmarkSchema)
    root = try JSONReader.parse(benchmarkRoot)
  } catch {
    return fail("bench-gqlhttp", CLIError("benchmark fixtures: \(error)"))
  }
  let port: Int
  do {
    port = try args.int("--port") ?? 0
  } catch {
    return fail("bench-gqlhttp", error)
  }
  var configuration = GraphQLHTTPHandler.Configuration()
  if args.value("--log") == "none" { configuration.logSink = { _ in } }
  let handler = GraphQLHTTPHandler(schema: schema, configuration: configuration) { document, operationName, variables in
    let result = executeSynchronously(
      schema: schema, document: document.document, source: document.source, rootValue: .json(root),
      variableValues: variables, operationName: operationName)
    return .executed(result)
  }
  let server: GraphQLHTTPServer
  do {
    server = try GraphQLHTTPServer(handler: handler, http: .init(port: port))
  } catch {
    return fail("bench-gqlhttp", CLIError("cannot start: \(error)"))
  }
  writeStdout("port \(server.port)\n")
  let done = DispatchSemaphore(value: 0)
  Task {
    await server.runUntilSignalled()
    done.signal()
  }
  done.wait()
  return 0
}

private let benchmarkSchema = """
  type Query { artist(name: String!): Artist }
  type Artist { name: String! genre: String albums(first: Int = 10): [Album!]! }
  type Album { title: String! year: Int trackCount: Int }
  """

/// Static data for the default property resolvers: `artist` ignores its argument.
private let benchmarkRoot = """
  {"artist":{"name":"AC/DC","genre":"Hard Rock","albums":[
    {"title":"High Voltage","year":1976,"trackCount":9},
    {"title":"Highway to Hell","year":1979,"trackCount":10},
    {"title":"Back in Black","year":1980,"trackCount":10}]}}
  """
