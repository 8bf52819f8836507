import Dispatch
import Foundation
import GraphQL
import GraphQLHTTP
import HTTPServer
import Synchronization

/// `musicgraph bench-gqlhttp serve [--port N] [--log none] [--timeout-ms N]` (hidden; driven by bench/http-gateway.sh):
/// the GraphQLHTTP stack (negotiation, document cache, execution, metrics, one log line per
/// request to stderr unless `--log none`) over a small static catalog schema, without upstreams,
/// so the benchmark measures the HTTP + GraphQL layer alone. Prints `port N` on stdout once
/// listening, then serves until SIGINT/SIGTERM and shuts down gracefully.
/// `musicgraph bench-gqlhttp inproc [--requests N] [--log none] [--timeout-ms N]`: calls the
/// handler directly N times (default 100,000), one after the other, with the benchmark's POST
/// request, and prints one JSON line with the median of 5 rounds in microseconds per request:
/// the cost of the GraphQLHTTP layer alone, without sockets or libmicrohttpd.
func runBenchGraphQLHTTPCommand(_ args: CommandLineArguments) -> Int32 {
    let unknown = args.unknown(allowed: ["--port", "--log", "--timeout-ms", "--requests"])
    let mode = args.positionals.first
    guard unknown.isEmpty, mode == "serve" || mode == "inproc" else {
        return fail(
            "bench-gqlhttp",
            CLIError("usage: bench-gqlhttp serve|inproc [--port N] [--requests N] [--log stderr|none] [--timeout-ms N]")
        )
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
    var configuration = GraphQLHTTPHandler.Configuration()
    do {
        port = try args.int("--port") ?? 0
        configuration.requestTimeoutMs = try args.int("--timeout-ms") ?? configuration.requestTimeoutMs
    } catch {
        return fail("bench-gqlhttp", error)
    }
    // As `serve` logs: batched to stderr.
    let log = LogWriter()
    configuration.logSink = log.sink
    if (try? args.value("--log")) == "none" { configuration.logSink = { _ in } }
    // Execution over static data never waits, so the server answers it on the spot.
    let executeStatic: @Sendable (PreparedDocument, String?, JSONObject) -> GraphQLHTTPOutcome = {
        document, operationName, variables in
        .executed(
            executeSynchronously(
                schema: schema, document: document.document, source: document.source, rootValue: .json(root),
                variableValues: variables, operationName: operationName, planCache: document.plans))
    }
    let handler = GraphQLHTTPHandler(
        schema: schema, configuration: configuration, executeNow: { executeStatic($0, $1, $2) },
        execute: { executeStatic($0, $1, $2) })
    if mode == "inproc" {
        let requests = max(1, (try? args.int("--requests")) ?? 100_000)
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<[Double]>([])
        Task {
            let request = HTTPRequest(
                method: "POST", path: "/graphql",
                headers: ["Content-Type": "application/json", "Accept": "application/graphql-response+json"],
                body: Array(benchmarkRequestBody.utf8))
            var rounds: [Double] = []
            for _ in 0..<5 {
                let clock = ContinuousClock()
                let start = clock.now
                for _ in 0..<requests {
                    let response = await handler.handle(request)
                    precondition(response.status == 200, "the benchmark request failed: \(response.status)")
                }
                let (seconds, attoseconds) = (clock.now - start).components
                rounds.append((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(requests))
            }
            result.withLock { $0 = rounds }
            done.signal()
        }
        done.wait()
        log.flush()
        let rounds = result.withLock { $0 }.sorted()
        writeStdout(String(format: #"{"requests":%d,"median_us_per_request":%.2f}"#, requests, rounds[2]) + "\n")
        return 0
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
        log.flush()
        done.signal()
    }
    done.wait()
    return 0
}

/// The request bench/http-gateway.sh POSTs (keep the two in step).
private let benchmarkRequestBody =
    #"{"query":"{ artist(name: \"AC/DC\") { name genre albums(first: 3) { title year trackCount } } }"}"#

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
