import Catalog
import Foundation
import GraphQL
import GraphQLHTTP
import HTTPServer
import RedisStore
import SharedState
import Tracing
import UpstreamEconomy

/// `musicgraph serve [--demo] [--host H] [--port N] [--upstream URL] [--max-query-cost N] [options]`:
/// the gateway over HTTP (`/graphql`, `/healthz`, `/readyz`, `/metrics`) until SIGINT/SIGTERM, then a
/// graceful shutdown. Prints `musicgraph serving http://HOST:PORT/graphql` on stdout once
/// bound (port 0 = ephemeral), so scripts and tests can read the address.
func runServeCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(serveUsage)
        return 0
    }
    let unknown = args.unknown(
        allowed: GatewaySetup.options.union(serveOptions).union(ConnectionOptions.names).union(
            OperationLimitOptions.names
        ).union(ClientOptions.names).union(TracingOptions.names))
    guard unknown.isEmpty else { return fail("serve", CLIError("unknown option \(unknown[0]); see --help")) }
    guard args.positionals.isEmpty else { return fail("serve", CLIError("takes no FILE; see --help")) }

    let setup: GatewaySetup
    let tracing: (tracer: Tracer, processor: BatchSpanProcessor)?
    let port: Int
    let adminPort: Int?
    let host: String
    do throws(CLIError) { host = try args.value("--host") ?? "127.0.0.1" } catch { return fail("serve", error) }
    var http = HTTPServer.Configuration(host: host)
    var handlerConfiguration = GraphQLHTTPHandler.Configuration()
    // Batched: a write(2) per request cost about a tenth of a cached answer's throughput.
    let log = LogWriter()
    handlerConfiguration.logSink = log.sink
    do throws(CLIError) {
        port = try args.int("--port") ?? 8080
        guard port <= 65_535 else { throw CLIError("--port must be at most 65535") }
        http.port = port
        if let timeout = try args.int("--request-timeout-ms") { handlerConfiguration.requestTimeoutMs = timeout }
        try ConnectionOptions.apply(args, to: &http)
        if let delay = try ConnectionOptions.shutdownDelayMs(args) { handlerConfiguration.shutdownDelayMs = delay }
        adminPort = try ConnectionOptions.adminPort(args)
        if args.lacksValue("--cors-origin") {
            throw CLIError("--cors-origin needs a comma-separated list of origins, or *")
        }
        if let origins = try args.value("--cors-origin") {
            handlerConfiguration.cors = CORSPolicy(
                allowedOrigins: origins == "*" ? .any : .list(origins.split(separator: ",").map(String.init)))
        }
        try configureClientProtocols(&handlerConfiguration, args)
        handlerConfiguration.clientPolicy = try ClientOptions.policy(args)
        handlerConfiguration.operationLimits = try OperationLimitOptions.limits(
            args, over: handlerConfiguration.operationLimits)
        setup = try GatewaySetup.make(args)
        tracing = try TracingOptions.tracer(args)
        handlerConfiguration.tracer = tracing?.tracer
        // One limit for both layers: the gateway's executor stops writing at it, the HTTP layer
        // checks the whole body (errors and extensions too).
        handlerConfiguration.maxResponseBytes = setup.gateway.configuration.maxResponseBytes
        // A process-local store keeps today's byte-bounded LRU; a shared one keeps them for all.
        if !(setup.store is MemoryStore) {
            handlerConfiguration.persistedQueries.store = SharedPersistedDocuments(store: setup.store)
        }
        // A fleet on one Redis counts each client's rate once for all its instances.
        if let redis = ((setup.store as? CircuitBreakerStore)?.base ?? setup.store) as? RedisStore {
            handlerConfiguration.sharedRateLimiter = RedisRateLimiter(store: redis)
        }
        try checkTrustedDocuments(handlerConfiguration.persistedQueries.trusted, schema: setup.gateway.schema)
    } catch {
        return fail("serve", error)
    }
    let gateway = setup.gateway
    handlerConfiguration.refusedDocumentExtensions = { gateway.notExecutedExtensions() }
    if let tracer = tracing?.tracer {
        handlerConfiguration.applicationMetrics = { gateway.metricsText() + TracingOptions.metricsText(tracer) }
    } else {
        handlerConfiguration.applicationMetrics = { gateway.metricsText() }
    }
    handlerConfiguration.readinessJSON = { gateway.readinessJSON() }
    handlerConfiguration.graphiQLDefaultQuery = graphiQLExampleQuery
    let handler = GraphQLHTTPHandler(
        schema: gateway.schema, configuration: handlerConfiguration,
        executeNow: { document, operationName, variables in
            gateway.cachedResponse(prepared: document, operationName: operationName, variables: variables).map(outcome)
        },
        executeStart: { document, operationName, variables in
            switch gateway.start(prepared: document, operationName: operationName, variables: variables) {
            case .finished(let response): return .finished(outcome(response))
            case .pending(let rest): return .later { outcome(await rest()) }
            }
        },
        executeBatch: { requests, finished in
            let responses = await gateway.execute(
                batch: requests.map {
                    GatewayOperation(prepared: $0.document, operationName: $0.operationName, variables: $0.variables)
                }, finished: { position, response in finished(position, outcome(response)) })
            // The operations that executed together share their upstream counts: report them once.
            var sharedReported = false
            return responses.map { response in
                var answer = outcome(response)
                if response.countsSharedWithBatch {
                    if sharedReported { answer.report = RequestReport() }
                    sharedReported = true
                }
                return answer
            }
        },
        executeIncrementally: { document, operationName, variables, deliver in
            report(
                await gateway.executeIncrementally(
                    prepared: document, operationName: operationName, variables: variables
                ) { part in
                    await deliver(
                        GraphQLHTTPIncrementalPart(
                            payload: part.payload, extensions: part.extensions, report: report(part.counts)))
                })
        },
        execute: { document, operationName, variables in
            outcome(await gateway.execute(prepared: document, operationName: operationName, variables: variables))
        })
    let server: GraphQLHTTPServer
    do {
        server = try GraphQLHTTPServer(handler: handler, http: http, adminPort: adminPort)
    } catch .descriptorLimit(let needed, let hardLimit) {
        return fail(
            "serve",
            CLIError(
                "--max-connections \(http.maxConnections) needs \(needed) open files, but the hard limit is "
                    + "\(hardLimit); raise it (ulimit -Hn, systemd LimitNOFILE=) or lower --max-connections"))
    } catch {
        return fail("serve", CLIError("cannot listen on port \(port): \(error)"))
    }
    // Before the address is announced: /metrics and the first answers show today's stored spend.
    _ = runGatewayBlocking {
        await gateway.ledger.loadStoredCounts()
        return 0
    }
    // Listening for SIGTERM before the address is announced: whoever reads it may stop us at once.
    let termination = TerminationListener()
    let shownHost = host.contains(":") ? "[\(host)]" : host
    writeStdout("musicgraph serving http://\(shownHost):\(server.port)\(handlerConfiguration.path)\n")
    if let demo = setup.demo { writeStderr("musicgraph serve: demo upstream at \(demo.baseURL)") }
    if let admin = server.adminPort {
        writeStderr("musicgraph serve: /healthz, /readyz and /metrics also at http://\(shownHost):\(admin)")
    }
    writeStderr("musicgraph serve: store \(setup.location)\(storeNote(setup.location))")
    let status = runGatewayBlocking {
        let watch = Task { await watchStore(gateway) }
        let signal = await server.runUntilSignalled(termination)
        watch.cancel()
        let counts = server.handler.metrics.shutdownCounts ?? ShutdownCounts()
        log.write(
            #"{"event":"shutdown","signal":\#(signal),"finished":\#(counts.finished),"#
                + #""unfinished":\#(counts.unfinished),"refused":\#(counts.refused)}"#)
        log.flush()
        if let demo = setup.demo { await demo.shutdown() }
        let unwritten = setup.gateway.recordingFailures
        for failure in unwritten { writeStderr("musicgraph serve: --record could not write \(failure)") }
        return unwritten.isEmpty ? 0 : 2
    }
    // The spans of the last answers go out before the process ends (within 2 s).
    tracing?.processor.shutdown()
    return status
}

/// Asks the shared store once a second (when no query did), so that `/readyz` and `/metrics`
/// follow it while idle, and logs each change: an unreachable store at start-up is one line
/// saying the gateway runs degraded, not a failure.
private func watchStore(_ gateway: Gateway) async {
    guard let health = gateway.storeHealth else { return }
    await gateway.probeStore()
    var up = health.snapshot.up
    if !up {
        writeStderr(
            "musicgraph serve: the \(health.kind) store is unreachable (\(health.snapshot.lastError ?? "no answer")); "
                + "serving in degraded mode: upstream responses are fetched here, not shared, until it is back")
    }
    while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(1))
        await gateway.probeStore()
        let now = health.snapshot
        if now.up != up {
            writeStderr(
                now.up
                    ? "musicgraph serve: the \(health.kind) store is back: responses are shared again"
                    : "musicgraph serve: the \(health.kind) store failed (\(now.lastError ?? "no answer")); "
                        + "serving in degraded mode until it is back")
            up = now.up
        }
    }
}

/// A gateway answer as the HTTP layer takes it: the result (or the cost refusal), its
/// extensions, and the counts behind the log line and /metrics.
private func outcome(_ response: GatewayResponse) -> GraphQLHTTPOutcome {
    let report = report(response.counts)
    if response.refused {
        return .rejected(response.result.errors, status: 400, extensions: response.extensions, report: report)
    }
    // Whole seconds left, rounded down: a cache must never keep it past the first expiry.
    let maxAge = response.freshUntil.map { max(0, ContinuousClock.now.duration(to: $0).components.seconds) } ?? 0
    var outcome = GraphQLHTTPOutcome.executed(
        response.result, extensions: response.extensions, report: report, serializedBody: response.serializedBody,
        maxAgeSeconds: Int(maxAge))
    outcome.ageSeconds = response.staleAgeSeconds
    return outcome
}

/// The counts behind a request's log line and /metrics.
private func report(_ counts: UpstreamCounters.Counts) -> RequestReport {
    var report = RequestReport(cacheHits: counts.cacheHits, deduplicated: counts.deduplicated)
    for (service, outcomes) in counts.requests {
        for (outcome, count) in outcomes { report.recordUpstream(service: service, outcome: outcome, count: count) }
    }
    return report
}

private let serveUsage = """
    usage: musicgraph serve [--demo] [--host 127.0.0.1] [--port 8080] [--upstream URL] [--max-query-cost N] [options]

    Serves the gateway over HTTP until SIGINT or SIGTERM (then refuses new requests and finishes
    those in flight):
      POST/GET /graphql   GraphQL over HTTP (application/graphql-response+json or application/json);
                          GET with Accept: text/html shows GraphiQL; @defer/@stream as
                          multipart/mixed parts with Accept: multipart/mixed; incrementalSpec=v0.2
                          (or deferSpec=20220824), else in one response
      GET /healthz        "ok"
      GET /readyz         200 {"status":"ready"} (or "degraded"); 503 once a shutdown began
      GET /metrics        Prometheus text: requests, latency, upstream requests, cache hits,
                          deduplicated reads, quota left, calls refused
    One JSON log line per request goes to stderr. Every response carries "extensions":
    {"cost":{"estimated","actual"},"upstream":{"requests","cacheHits","deduplicated"},
    "quota":{"youtube":{"used","limit"}}}.

    example:
      musicgraph serve --demo --port 8080 &
      curl -s localhost:8080/graphql -H 'Content-Type: application/json' \\
        -d '{"query":"{ artist(name: \\"AC/DC\\") { name albums(first: 2) { title } } }"}'

    options:
      --host H               address to listen on (default 127.0.0.1; 0.0.0.0 for all)
      --port N               port (default 8080; 0 = any free port, printed on stdout)
      --request-timeout-ms N answer 504 after N ms of execution (default 30000; 0 = none)
      --cors-origin LIST     allow these browser origins (comma-separated, or *)

    """ + clientProtocolsHelp + "\n" + ClientOptions.help + "\n" + ConnectionOptions.help + "\n"
    + OperationLimitOptions.help + "\n" + TracingOptions.help
    + GatewaySetup.optionsHelp + "\n"

/// What the start-up line adds after the store's location: how long what it keeps lives.
private func storeNote(_ location: StoreLocation) -> String {
    switch location {
    case .memory: " (this process only: gone on exit)"
    case .sqlite: " (kept across restarts, shared by this machine's processes on the file)"
    case .redis: " (shared by every instance on it)"
    }
}
