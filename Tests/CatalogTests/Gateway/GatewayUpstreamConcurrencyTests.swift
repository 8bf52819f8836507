import Foundation
import GraphQL
import HTTPClient
import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// The default upstream concurrency lets a query's widest level go out in one wave: the
    /// nested Iron Maiden query's 150 YouTube searches are all in flight at once (4 upstream
    /// round trips on its critical path), where a cap of 32 sends them in 5 waves.
    @Suite struct GatewayUpstreamConcurrency {
        /// The real libcurl transport to DemoUpstream, noting the most calls in flight at once.
        final class PeakTransport: UpstreamTransport {
            let base: HTTPClientTransport
            private let counts = Mutex((now: 0, peak: 0))

            init(base: HTTPClientTransport) { self.base = base }

            var peak: Int { counts.withLock { $0.peak } }

            func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
                counts.withLock { counts in
                    counts.now += 1
                    counts.peak = max(counts.peak, counts.now)
                }
                defer { counts.withLock { $0.now -= 1 } }
                return try await base.get(url: url, headers: headers)
            }
        }

        static func peakInFlight(searchConcurrency: Int) async throws -> Int {
            try await Loopback.run { loopback in
                // Long enough that every search of the level has started before the first answers.
                try await loopback.setFaults(#"{"/youtube": {"latencyMs": 400}}"#)
                var configuration = GatewayHarness.configuration(baseURL: loopback.baseURL)
                configuration.searchConcurrency = searchConcurrency
                let client = HTTPClient(
                    configuration: HTTPClient.Configuration(
                        maxConcurrentRequestsPerHost: configuration.maxConcurrentRequestsPerHost,
                        secretQueryParameters: HTTPClientTransport.secretQueryParameters))
                let transport = PeakTransport(base: HTTPClientTransport(client: client))
                let h = GatewayHarness(
                    gateway: try Gateway(configuration: configuration, transport: transport), loopback: loopback)
                let response = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(response.result.errors == [])
                #expect(response.counts.totalRequests == 153)
                return transport.peak
            }
        }

        @Test func theDefaultSendsEveryYouTubeSearchOfTheLevelAtOnce() async throws {
            #expect(GatewayConfiguration().maxConcurrentRequestsPerHost >= 150)
            let peak = try await Self.peakInFlight(searchConcurrency: GatewayConfiguration().searchConcurrency)
            #expect(peak == 150)
        }

        @Test func aSmallerCapSendsTheLevelInWaves() async throws {
            #expect(try await Self.peakInFlight(searchConcurrency: 32) == 32)
        }

        /// The connections of a wave stay open for the next one: the gateway's client keeps as
        /// many idle connections as it lets be in flight to a host. (It kept 64, so a wave of
        /// 150 searches closed 86 connections as their answers came in, and the next wave
        /// connected again.)
        @Test func theConnectionsOfAWaveAreKeptForTheNext() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/youtube": {"latencyMs": 300}}"#)
                let response = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(response.result.errors == [])
                #expect(response.counts.totalRequests == 153)
                let statistics = { h.loopback.server.server.connectionStatistics }
                // Closes reach the server a moment after the answers reach the gateway.
                try await Task.sleep(for: .milliseconds(300))
                #expect(statistics().open >= 150, "\(statistics())")
            }
        }
    }
}
