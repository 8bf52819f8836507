import GraphQL
import HTTPClient
import HTTPServer
import HTTPTypes
import Synchronization

@testable import GraphQLHTTP

/// A small schema with in-memory resolvers (sync and async) standing in for the music gateway,
/// and a server around it whose log lines the tests can read.
enum TestGateway {
    static let sdl = """
        type Query {
          hello(name: String = "world"): String!
          pause(ms: Int!): String
          broken: String
          mandatory: String!
          costly: Int
          slowForever: String
        }
        type Mutation {
          rename(to: String!): String!
        }
        type Subscription {
          ticks: Int
        }
        """

    static let schema: Schema = {
        do {
            return try buildSchema(sdl: sdl)
        } catch {
            preconditionFailure("the test schema does not build: \(error)")
        }
    }()

    struct Resolvers: ExecutionResolvers {
        func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
            switch (typeName, field.name) {
            case ("Query", "hello"):
                return SyncResolver { _, arguments, _ in
                    guard case .string(let name)? = arguments["name"] else { return .null }
                    return .json(.string("Hello, \(name)!"))
                }
            case ("Query", "pause"):
                return AsyncResolver { _, arguments, _ in
                    guard case .int(let ms)? = arguments["ms"] else { return .null }
                    try await Task.sleep(for: .milliseconds(ms))
                    return .json(.string("paused \(ms) ms"))
                }
            case ("Query", "broken"):
                return SyncResolver { _, _, _ in
                    throw GraphQLError("broken on purpose", extensions: JSONObject([("code", .string("BROKEN"))]))
                }
            case ("Query", "mandatory"):
                return AsyncResolver { _, _, _ in throw GraphQLError("mandatory value unavailable") }
            case ("Query", "slowForever"):
                // Ignores cancellation on purpose (a detached task does not inherit it), without
                // spinning: the deadline must answer the client anyway.
                return AsyncResolver { _, _, _ in
                    await Task.detached { try? await Task.sleep(for: .seconds(6)) }.value
                    return .json(.string("finally"))
                }
            case ("Mutation", "rename"):
                return SyncResolver { _, arguments, _ in
                    guard case .string(let name)? = arguments["to"] else { return .null }
                    return .json(.string("renamed to \(name)"))
                }
            default:
                return nil
            }
        }
    }

    /// The execute closure: rejects documents selecting `costly` (as the gateway's cost limit
    /// would), reports two iTunes requests and one cache hit per executed request, and adds a
    /// `cost` extension.
    static let execute: GraphQLHTTPHandler.Execute = { document, operationName, variables in
        if document.source.body.contains("costly") {
            return .rejected(
                [
                    GraphQLError(
                        "Query cost 5000 exceeds the limit of 1000.",
                        extensions: JSONObject([("code", .string("COST_LIMIT"))]))
                ],
                status: 400, extensions: JSONObject([("cost", .int(5000))]))
        }
        let result = await GraphQL.execute(
            schema: schema, document: document.document, source: document.source, variableValues: variables,
            operationName: operationName, resolvers: Resolvers())
        var report = RequestReport(cacheHits: 1)
        report.recordUpstream(service: "itunes", outcome: "ok", count: 2)
        return .executed(result, extensions: JSONObject([("cost", .int(1))]), report: report)
    }
}

/// Collects log lines in memory.
final class LogCollector: Sendable {
    private let lines = Mutex<[String]>([])

    var sink: @Sendable (RequestLog) -> Void { { log in self.lines.withLock { $0.append(log.line) } } }
    var all: [String] { lines.withLock { $0 } }
}

/// A running test server plus a client without retries.
struct TestServer {
    let server: GraphQLHTTPServer
    let log: LogCollector
    let client = HTTPClient(configuration: HTTPClient.Configuration(timeoutMs: 5_000, retry: RetryPolicy(maxTries: 1)))

    init(
        configure: (inout GraphQLHTTPHandler.Configuration) -> Void = { _ in },
        http: HTTPServer.Configuration = HTTPServer.Configuration(),
        executeNow: GraphQLHTTPHandler.ExecuteNow? = nil,
        executeStart: GraphQLHTTPHandler.ExecuteStart? = nil,
        executeBatch: GraphQLHTTPHandler.ExecuteBatch? = nil,
        execute: @escaping GraphQLHTTPHandler.Execute = TestGateway.execute
    ) throws {
        let log = LogCollector()
        var configuration = GraphQLHTTPHandler.Configuration(logSink: log.sink)
        configure(&configuration)
        let handler = GraphQLHTTPHandler(
            schema: TestGateway.schema, configuration: configuration, executeNow: executeNow,
            executeStart: executeStart, executeBatch: executeBatch, execute: execute)
        self.server = try GraphQLHTTPServer(handler: handler, http: http)
        self.log = log
    }

    var base: String { "http://127.0.0.1:\(server.port)" }

    /// Returns once the handler counts a request in flight (at most 2 s).
    func waitUntilARequestIsInFlight() async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(2))
        while server.handler.metrics.requestsInFlight == 0, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func post(
        _ body: String, path: String = "/graphql", contentType: String? = "application/json", accept: String? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> HTTPClientResponse {
        var headers = HTTPHeaders(extra)
        // libcurl labels a body form-encoded unless told otherwise; an empty value sends no header.
        headers.add(name: "Content-Type", value: contentType ?? "")
        headers.add(name: "Accept", value: accept ?? "")  // an empty value makes libcurl send none
        return try await client.post(base + path, headers: headers, body: Array(body.utf8))
    }

    func get(_ pathAndQuery: String, accept: String? = nil, headers extra: [(String, String)] = []) async throws
        -> HTTPClientResponse
    {
        var headers = HTTPHeaders(extra)
        headers.add(name: "Accept", value: accept ?? "")
        return try await client.get(base + pathAndQuery, headers: headers)
    }

    func request(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:]) async throws -> HTTPClientResponse {
        try await client.execute(HTTPClientRequest(method: method, url: base + path, headers: headers))
    }
}

extension HTTPClientResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// `text` percent-encoded for a URL query value (everything but unreserved characters).
func urlEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.append(Character(UnicodeScalar(byte)))
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            out += "%" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return out
}
