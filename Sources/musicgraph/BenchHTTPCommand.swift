import Dispatch
import Foundation
import HTTPClient
import HTTPServer
import Synchronization

/// `musicgraph bench-http` (hidden; driven by bench/http.sh):
/// - `bench-http serve [--port N] [--request-timeout-ms N]`: an HTTPServer on 127.0.0.1 answering every
///   request with a fixed 1 kB JSON body; prints `port N` on stdout, then serves until killed.
/// - `bench-http get --url URL [--requests N] [--concurrency C]`: GETs URL N times (default 1000)
///   with C workers (default 64), each sending its next request when the previous one is answered
///   (what `curl --parallel --parallel-max C` does), through one HTTPClient without retries. Prints
///   one JSON line: requests, failures, wall seconds, requests/s, p50 and p99 latency in ms.
func runBenchHTTPCommand(_ args: CommandLineArguments) -> Int32 {
    let mode = args.positionals.first
    let unknown = args.unknown(allowed: ["--port", "--request-timeout-ms", "--url", "--requests", "--concurrency"])
    guard unknown.isEmpty else { return fail("bench-http", CLIError("unknown options \(unknown)")) }
    do {
        switch mode {
        case "serve":
            return try serveForBenchmark(
                port: args.int("--port") ?? 0, requestTimeoutMs: args.int("--request-timeout-ms") ?? 30_000)
        case "get":
            guard let url = try args.value("--url") else { throw CLIError("get needs --url") }
            return runBlocking {
                await getForBenchmark(
                    url: url, requests: (try? args.int("--requests")) ?? 1_000,
                    concurrency: max(1, (try? args.int("--concurrency")) ?? 64))
            }
        default: throw CLIError("expected 'serve' or 'get'")
        }
    } catch let error as CLIError {
        return fail("bench-http", error)
    } catch {
        return fail("bench-http", CLIError("\(error)"))
    }
}

/// A catalog-sized answer, so the client parses a realistic body rather than an empty one.
private let benchmarkBody = Array(
    (#"{"resultCount":1,"results":[{"wrapperType":"collection","artistName":"AC/DC","collectionName":"#
        + #""Back in Black","trackCount":10,"releaseDate":"1980-07-25T07:00:00Z","primaryGenreName":"Hard Rock","#
        + #""padding":""# + String(repeating: "x", count: 800) + #""}]}"#).utf8)

private func serveForBenchmark(port: Int, requestTimeoutMs: Int) throws -> Int32 {
    let configuration = HTTPServer.Configuration(
        port: port, requestTimeoutMs: requestTimeoutMs, maxConnections: 2_000)
    let server = try HTTPServer(configuration: configuration) { _ in
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: benchmarkBody)
    }
    writeStdout("port \(server.port)\n")
    while true {
        sleep(3_600)
    }
}

private func getForBenchmark(url: String, requests: Int, concurrency: Int) async -> Int32 {
    let client = HTTPClient(
        configuration: HTTPClient.Configuration(
            maxConcurrentRequestsPerHost: concurrency, maxIdleConnections: concurrency, retry: RetryPolicy(maxTries: 1))
    )
    let next = RequestCounter()
    let clock = ContinuousClock()
    let start = clock.now
    let (latencies, failures) = await withTaskGroup(of: ([Double], Int).self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                var latencies: [Double] = []
                var failures = 0
                while next.value.add(1, ordering: .relaxed).oldValue < requests {
                    let sent = clock.now
                    do {
                        let response = try await client.get(url)
                        if response.status != 200 { failures += 1 }
                    } catch {
                        failures += 1
                    }
                    latencies.append(milliseconds(clock.now - sent))
                }
                return (latencies, failures)
            }
        }
        return await group.reduce(into: ([Double](), 0)) { total, part in
            total.0 += part.0
            total.1 += part.1
        }
    }
    let seconds = milliseconds(clock.now - start) / 1_000
    let sorted = latencies.sorted()
    func percentile(_ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
    writeStdout(
        String(
            format: #"{"requests":%d,"failures":%d,"seconds":%.4f,"rps":%.1f,"p50_ms":%.3f,"p99_ms":%.3f}"#,
            sorted.count, failures, seconds, Double(sorted.count) / seconds, percentile(0.50), percentile(0.99)) + "\n")
    return failures == 0 ? 0 : 1
}

/// The shared count of requests started by the workers.
private final class RequestCounter: Sendable {
    let value = Atomic<Int>(0)
}

private func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
}

/// Runs async work from the synchronous command table and waits for its exit status.
private func runBlocking(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
    let done = DispatchSemaphore(value: 0)
    let status = Mutex<Int32>(2)
    Task {
        let result = await body()
        status.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return status.withLock { $0 }
}
