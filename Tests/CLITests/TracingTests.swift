import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// `serve --otlp-endpoint` against DemoUpstream and a loopback collector that decodes every
/// export with the official OTLP definitions (`Tests/Clients/otlp_collector.py`, PyPI
/// `opentelemetry-proto` in a venv of `Tests/Clients/otel-venv.sh`): the client's trace is
/// continued, every upstream request is one CLIENT span and carries the trace on, and no span
/// holds a key.
@Suite(.serialized) struct TracingTests {
    static let clients = CLI.root.appendingPathComponent("Tests/Clients").path
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let clientSpanID = "00f067aa0ba902b7"

    @Test func aQueryIsOneTraceWithASpanPerUpstreamRequest() async throws {
        let traced = try Traced(["--service-name", "musicgraph-test"])
        defer { traced.stop() }
        let (collector, demo, gateway) = (traced.collector, traced.demo, traced.gateway)

        let response = try await Self.post(
            gateway.url, "query Everything " + StoreSecretsTests.query,
            headers: [
                ("traceparent", "00-\(Self.traceID)-\(Self.clientSpanID)-01"), ("tracestate", "vendor=opaque"),
            ])
        #expect(response.status.code == 200)
        let spans = try await collector.spans(until: { $0.contains { $0.kind == 2 } })
        let upstream = try await Self.demoRequests(demo.url)

        #expect(collector.rejected.isEmpty, "\(collector.rejected)")
        #expect(collector.contentTypes.allSatisfy { $0 == "application/json" })
        #expect(spans.allSatisfy { $0.traceID == Self.traceID })
        let servers = spans.filter { $0.kind == 2 }
        try #require(servers.count == 1, "\(spans.map(\.name))")
        let server = servers[0]
        #expect(server.parentID == Self.clientSpanID)
        #expect(server.name == "POST /graphql")
        #expect(server.attributes["http.request.method"] as? String == "POST")
        #expect(server.attributes["http.response.status_code"] as? Int == 200)
        #expect(server.resource["service.name"] as? String == "musicgraph-test")
        #expect(server.resource["service.instance.id"] is String)
        #expect(server.resource["service.version"] is String)
        #expect(server.traceState == "vendor=opaque")
        for name in ["graphql.parse", "graphql.validate", "graphql.execute"] {
            #expect(spans.filter { $0.name == name }.count == 1, "\(name)")
        }
        let operation = try #require(spans.first { $0.attributes["graphql.operation.type"] != nil })
        #expect(operation.name == "query Everything")
        #expect(operation.attributes["graphql.operation.name"] as? String == "Everything")
        // The document holds what the user typed: only with --trace-documents.
        #expect(operation.attributes["graphql.document"] == nil)
        #expect(operation.parentID == server.spanID)
        #expect(
            spans.contains {
                $0.name.hasPrefix("dataloader.batch ") && $0.attributes["musicgraph.dataloader.batch_size"] is Int
            })

        // One CLIENT span per request DemoUpstream saw, each its traceparent's parent.
        let clients = spans.filter { $0.kind == 3 }
        #expect(clients.count == upstream.count, "\(clients.map(\.name)) vs \(upstream.count) requests")
        #expect(upstream.count >= 5)
        let clientIDs = Set(clients.map(\.spanID))
        for request in upstream {
            let traceparent = try #require(request["traceparent"] as? String, "\(request)")
            let parts = traceparent.split(separator: "-").map(String.init)
            #expect(parts.count == 4 && parts[1] == Self.traceID && parts[3] == "01", "\(traceparent)")
            #expect(parts.count == 4 && clientIDs.contains(parts[2]), "\(traceparent) has no CLIENT span")
        }
        for client in clients {
            #expect(client.attributes["http.response.status_code"] is Int, "\(client.name)")
            #expect(client.attributes["http.request.method"] as? String == "GET")
            #expect(client.attributes["musicgraph.upstream.quota_units"] is Int)
            let template = try #require(client.attributes["url.template"] as? String)
            #expect(template.hasPrefix("http://127.0.0.1:") && !template.contains("?"), "\(template)")
            for term in ["AC", "DC", "Rock"] { #expect(!template.contains(term), "\(template)") }
        }
        // No form of any key anywhere in what was exported.
        #expect(StoreSecretsTests.leaks(in: try await collector.raw()) == 0)
    }

    @Test func aStreamedAnswerIsTracedToItsEnd() async throws {
        let traced = try Traced(["--trace-documents"])
        defer { traced.stop() }
        let (collector, demo, gateway) = (traced.collector, traced.demo, traced.gateway)
        let response = try await Self.post(
            gateway.url, #"query Def { artist(name: "AC/DC") { name ... @defer { albums(first: 1) { title } } } }"#,
            headers: [("Accept", "multipart/mixed; incrementalSpec=v0.2")])
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"hasNext\":false"))
        let spans = try await collector.spans(until: { spans in
            spans.contains { $0.kind == 2 } && spans.contains { $0.name == "query Def" }
        })
        let server = try #require(spans.first { $0.kind == 2 })
        let operation = try #require(spans.first { $0.name == "query Def" })
        #expect(operation.parentID == server.spanID)
        #expect((operation.attributes["graphql.document"] as? String)?.hasPrefix("query Def {") == true)
        #expect(server.attributes["http.response.status_code"] as? Int == 200)
        #expect(spans.filter { $0.kind == 3 }.count == (try await Self.demoRequests(demo.url)).count)
        #expect(Set(spans.map(\.traceID)).count == 1)
    }

    /// One operation span per element of a batch, the one a kept result answers too.
    @Test func aBatchHasAnOperationSpanPerElementKeptResultsToo() async throws {
        let traced = try Traced([])
        defer { traced.stop() }
        let (collector, gateway) = (traced.collector, traced.gateway)
        let kept = #"query Kept { artist(name: "AC/DC") { name } }"#
        #expect(try await Self.post(gateway.url, kept, headers: []).status.code == 200)
        let batch = try JSONSerialization.data(withJSONObject: [
            ["query": kept], ["query": #"query Fresh { artist(name: "Queen") { name } }"#],
        ])
        let traceparent = "00-\(Self.traceID)-\(Self.clientSpanID)-01"
        let response = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: gateway.url,
                headers: ["Content-Type": "application/json", "traceparent": traceparent], body: Array(batch)))
        #expect(response.status.code == 200)
        let spans = try await collector.spans(until: { spans in
            spans.filter { $0.traceID == Self.traceID && $0.name.hasPrefix("query ") }.count >= 2
        }).filter { $0.traceID == Self.traceID }
        let server = try #require(spans.first { $0.kind == 2 })
        let operations = spans.filter { $0.name.hasPrefix("query ") }
        #expect(Set(operations.map(\.name)) == ["query Kept", "query Fresh"])
        #expect(operations.allSatisfy { $0.parentID == server.spanID })
    }

    @Test func aCollectorThatIsDownChangesNoAnswer() async throws {
        let gone = try Collector()
        let port = gone.port
        gone.stop()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let gateway = try CLIChild(
            [
                "serve", "--port", "0", "--store", "memory", "--upstream", demo.url, "--otlp-endpoint",
                "http://127.0.0.1:\(port)",
            ], environment: StoreSecretsTests.environment)
        defer { gateway.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<3 {
            let response = try await Self.post(gateway.url, #"{ artist(name: "AC/DC") { name } }"#, headers: [])
            #expect(response.status.code == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains("AC/DC"))
        }
        #expect(started.duration(to: clock.now) < .seconds(3))
    }

    @Test func tracingIsOffWithoutAnEndpointAndRatioNeedsOne() throws {
        let run = try CLI.run(["serve", "--trace-sample-ratio", "0.5"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--otlp-endpoint"))
        let bad = try CLI.run(["serve", "--otlp-endpoint", "http://127.0.0.1:1", "--trace-sample-ratio", "2"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("from 0 to 1"))
    }

    static func post(_ url: String, _ query: String, headers: [(String, String)]) async throws -> HTTPClientResponse {
        let body = try JSONSerialization.data(withJSONObject: ["query": query])
        var fields: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in headers { fields.add(name: name, value: value) }
        return try await HTTPClient().execute(
            HTTPClientRequest(method: .post, url: url, headers: fields, body: Array(body)))
    }

    static func demoRequests(_ base: String) async throws -> [[String: Any]] {
        let response = try await HTTPClient().get(base + "/__demo/requests")
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]) ?? []
    }
}

/// A collector, a DemoUpstream and a gateway exporting its traces to the collector.
struct Traced {
    let collector: Collector
    let demo: CLIChild
    let gateway: CLIChild

    /// `serve` with `extra` options besides the store, the upstream and the endpoint.
    init(_ extra: [String]) throws {
        collector = try Collector()
        demo = try CLIChild(["demo-upstream", "--port", "0"])
        gateway = try CLIChild(
            [
                "serve", "--port", "0", "--store", "memory", "--upstream", demo.url, "--otlp-endpoint",
                "http://127.0.0.1:\(collector.port)",
            ] + extra, environment: StoreSecretsTests.environment)
    }

    func stop() {
        gateway.stop()
        demo.stop()
        collector.stop()
    }
}

/// One span as the collector decoded it.
struct ExportedSpan {
    let name: String
    let kind: Int
    let traceID: String
    let spanID: String
    let parentID: String
    let traceState: String?
    let attributes: [String: Any]
    let resource: [String: Any]

    init(_ json: [String: Any]) {
        name = json["name"] as? String ?? ""
        kind = json["kind"] as? Int ?? 0
        traceID = json["traceId"] as? String ?? ""
        spanID = json["spanId"] as? String ?? ""
        parentID = json["parentSpanId"] as? String ?? ""
        traceState = json["traceState"] as? String
        attributes = json["attributes"] as? [String: Any] ?? [:]
        resource = json["resource"] as? [String: Any] ?? [:]
    }
}

/// `Tests/Clients/otlp_collector.py` on a free loopback port, in the venv with opentelemetry-proto.
final class Collector: @unchecked Sendable {
    let process = Process()
    let port: Int
    private var state: [String: Any] = [:]

    init() throws {
        let venv = Process()
        venv.executableURL = URL(fileURLWithPath: "/bin/sh")
        venv.arguments = [TracingTests.clients + "/otel-venv.sh"]
        let path = Pipe()
        venv.standardOutput = path
        try venv.run()
        let python = String(decoding: path.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        venv.waitUntilExit()
        guard venv.terminationStatus == 0 else {
            throw CLIProcessError("Tests/Clients/otel-venv.sh could not install opentelemetry-proto")
        }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [TracingTests.clients + "/otlp_collector.py"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        guard let port = Int(readFirstLine(of: out)) else {
            throw CLIProcessError("the collector printed no port")
        }
        self.port = port
    }

    /// SIGKILL: a child of the test runner may be started with SIGTERM blocked.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var rejected: [String] { state["rejected"] as? [String] ?? [] }
    var contentTypes: [String] { state["contentTypes"] as? [String] ?? [] }

    /// The spans received once `done` holds for them (polled for up to 10 s).
    func spans(until done: ([ExportedSpan]) -> Bool) async throws -> [ExportedSpan] {
        var spans: [ExportedSpan] = []
        for _ in 0..<100 {
            let response = try await HTTPClient().get("http://127.0.0.1:\(port)/spans")
            state = (try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
            spans = (state["spans"] as? [[String: Any]] ?? []).map(ExportedSpan.init)
            if done(spans) { return spans }
            try await Task.sleep(for: .milliseconds(100))
        }
        return spans
    }

    /// Every body it accepted.
    func raw() async throws -> [UInt8] {
        try await HTTPClient().get("http://127.0.0.1:\(port)/raw").body
    }
}
