import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// A query whose task is cancelled (its client went away) sends nothing more upstream: its
    /// loaders' batches run on in tasks of their own, and find the request over before each
    /// send. Sends other requests share go on for them.
    @Suite struct GatewayCancellation {
        static func youTubeSearches(_ loopback: Loopback) async throws -> Int {
            try await loopback.requestLog().entries.filter { $0.path == "/youtube/v3/search" }.count
        }

        @Test func aCancelledQueryStopsSendingWhileItsSearchesAreStillQueued() async throws {
            try await GatewayHarness.configured({ $0.searchConcurrency = 4 }).run { h in
                // 150 searches, 4 at a time, 300 ms each: 11 s if nothing stopped them.
                try await h.loopback.setFaults(#"{"/youtube/v3/search": {"latencyMs": 300}}"#)
                let query = Task { try await h.query(GatewayRequestCounts.ironMaiden) }
                try await GatewayDeduplication.waitUntil { h.gateway.inFlightCount >= 4 }
                query.cancel()
                _ = try? await query.value
                // The searches on the wire finish; then nothing more is sent.
                try await Task.sleep(for: .milliseconds(700))
                let settled = try await Self.youTubeSearches(h.loopback)
                try await Task.sleep(for: .milliseconds(1_000))
                #expect(try await Self.youTubeSearches(h.loopback) == settled)
                #expect(settled <= 8, "searches sent after the cancellation: \(settled - 4)")
                #expect(h.gateway.inFlightCount == 0)
            }
        }

        /// The only waiter of a send is its own query's loader batch, a task the query's
        /// cancellation does not reach: before, it stayed registered after the query was
        /// cancelled (client gone, deadline), so the send's retry was admitted and paid, 200
        /// units spent for a query nobody waited for.
        @Test func aSendWhoseOnlyQueryWasCancelledIsNotRetried() async throws {
            try await GatewayHarness.configured({
                $0.upstreamTimeoutMs = 300
                $0.upstreamMaxTries = 2
                $0.dailyQuota = [.youTube: 1_000]
            }).run { h in
                // Every try times out (300 ms of 2,000): without the cancellation, it is retried.
                try await h.loopback.setFaults(#"{"/youtube/v3/search": {"latencyMs": 2000}}"#)
                let query = Task { try await h.query(#"{ videos(query: "Iron Maiden", first: 1) { title } }"#) }
                try await GatewayDeduplication.waitUntil { h.gateway.inFlightCount == 1 }
                try await Task.sleep(for: .milliseconds(100))
                query.cancel()
                _ = try? await query.value
                // The try on the wire times out at 300 ms; a retry would follow its back-off.
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(try await Self.youTubeSearches(h.loopback) == 1)
                #expect(h.gateway.ledger.usage() == [QuotaUsage(service: .youTube, used: 100, limit: 1_000)])
                #expect(h.gateway.inFlightCount == 0)
            }
        }

        @Test func anotherQueryWaitingOnTheSameSendsGetsItsWholeAnswer() async throws {
            try await Loopback.run { loopback in
                let lone = try await GatewayHarness(
                    gateway: try Gateway(configuration: GatewayHarness.configuration(baseURL: loopback.baseURL)),
                    loopback: loopback
                ).query(GatewayRequestCounts.ironMaiden)
                try await loopback.clearLog()
                // 150 searches, 4 at a time, 100 ms each: the one that stays waits about 4 s.
                try await loopback.setFaults(#"{"/youtube/v3/search": {"latencyMs": 100}}"#)
                var configuration = GatewayHarness.configuration(baseURL: loopback.baseURL)
                configuration.searchConcurrency = 4
                let h = GatewayHarness(gateway: try Gateway(configuration: configuration), loopback: loopback)
                let leaving = Task { try await h.query(GatewayRequestCounts.ironMaiden) }
                let staying = Task { try await h.query(GatewayRequestCounts.ironMaiden) }
                try await GatewayDeduplication.waitUntil { h.gateway.inFlightCount >= 4 }
                leaving.cancel()
                let answer = try await staying.value
                #expect(answer.result.errors == [])
                #expect(answer.result.data == lone.result.data)
                _ = try? await leaving.value
                let log = try await loopback.requestLog().entries
                #expect(Set(log.map { "\($0.path)?\($0.query)" }).count == log.count)  // none sent twice
                #expect(log.count == 153)
            }
        }
    }
}
