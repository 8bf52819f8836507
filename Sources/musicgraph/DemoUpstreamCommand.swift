import DemoUpstream
import Dispatch
import Foundation

/// `musicgraph demo-upstream [--host H] [--port N] [--latency-ms N] [--jitter-ms N]`:
/// serves the five upstream APIs from the bundled catalog until SIGINT/SIGTERM. Prints
/// `demo-upstream listening on http://HOST:PORT` to stdout once bound (port 0 = ephemeral),
/// so scripts can read the address.
func runDemoUpstreamCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        print(
            """
            usage: musicgraph demo-upstream [--host 127.0.0.1] [--port 8089] [--latency-ms N] [--jitter-ms N]

            Serves iTunes Search (/search, /lookup), Apple Music (/v1/catalog/…), Rakuten Books CD
            (/services/api/BooksCD/Search/20170404), YouTube Data v3 (/youtube/v3/search, /videos) and
            TMDB (/3/search/movie, /3/movie/{id}/videos) from the bundled Chinook catalog. Any key works.
            Control: POST /__demo/faults, GET|DELETE /__demo/requests, GET /__demo/health.
            """)
        return 0
    }
    let allowed: Set<String> = ["--host", "--port", "--latency-ms", "--jitter-ms"]
    let unknown = args.unknown(allowed: allowed)
    guard unknown.isEmpty else {
        return fail("demo-upstream", CLIError("unknown option \(unknown.joined(separator: ", "))"))
    }
    let options: DemoUpstream.Options
    let port: Int
    let host: String
    do {
        port = try args.int("--port") ?? 8089
        host = try args.value("--host") ?? "127.0.0.1"
        options = DemoUpstream.Options(
            latencyMs: try args.int("--latency-ms") ?? 0, jitterMs: try args.int("--jitter-ms") ?? 0)
    } catch {
        return fail("demo-upstream", error)
    }
    guard port <= 65_535 else { return fail("demo-upstream", CLIError("--port must be at most 65535")) }
    let running: DemoUpstreamServer
    do {
        running = try DemoUpstreamServer(
            demo: try DemoUpstream(options: options), host: host, port: port)
    } catch {
        return fail("demo-upstream", CLIError("cannot start: \(error)"))
    }
    writeStdout("demo-upstream listening on \(running.baseURL)\n")

    // Shut down cleanly on SIGINT/SIGTERM; the server's threads do the work meanwhile.
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
        source.setEventHandler {
            Task {
                await running.shutdown()
                exit(0)
            }
        }
        source.resume()
        sources.append(source)
    }
    withExtendedLifetime(sources) { dispatchMain() }
}
