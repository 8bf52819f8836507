import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// In-flight deduplication across requests: concurrent requests that need the same upstream
    /// request share one send and its answer, counted as a request by the sender and as a
    /// `deduplicated` read by the others.
    @Suite struct GatewayDeduplication {
        static func gateway(_ loopback: Loopback, _ configure: (inout GatewayConfiguration) -> Void = { _ in }) throws
            -> GatewayHarness
        {
            var configuration = GatewayHarness.configuration(baseURL: loopback.baseURL)
            configure(&configuration)
            return GatewayHarness(gateway: try Gateway(configuration: configuration), loopback: loopback)
        }

        static func concurrently(_ h: GatewayHarness, _ query: String, times: Int) async throws -> [GatewayResponse] {
            try await withThrowingTaskGroup(of: GatewayResponse.self) { group in
                for _ in 0..<times { group.addTask { try await h.query(query) } }
                var responses: [GatewayResponse] = []
                for try await response in group { responses.append(response) }
                return responses
            }
        }

        @Test(arguments: [8, 64])
        func concurrentColdIronMaidenQueriesSendEachDistinctRequestOnce(clients: Int) async throws {
            try await Loopback.run { loopback in
                try await loopback.setFaults(#"{"/": {"latencyMs": 20}}"#)
                let lone = try await Self.gateway(loopback).query(GatewayRequestCounts.ironMaiden)
                #expect(lone.result.errors == [])
                try await loopback.clearLog()

                let h = try Self.gateway(loopback)  // cold: its own empty cache
                let responses = try await Self.concurrently(h, GatewayRequestCounts.ironMaiden, times: clients)
                let log = try await loopback.requestLog().entries
                #expect(log.count == 153)
                #expect(log.filter { $0.path == "/youtube/v3/search" }.count == 150)
                #expect(Set(log.map { "\($0.path)?\($0.query)" }).count == 153)  // no request twice
                #expect(responses.count == clients)
                for response in responses {
                    #expect(response.result.errors == [])
                    #expect(response.result.data == lone.result.data)
                    // Every response stands for the same 153 reads, however they were answered.
                    #expect(
                        response.counts.totalRequests + response.counts.cacheHits + response.counts.deduplicated
                            == 153)
                }
                #expect(responses.map(\.counts.totalRequests).reduce(0, +) == 153)
                #expect(responses.map(\.counts.cost).reduce(0, +) == 15_003)
                #expect(responses.map(\.counts.deduplicated).reduce(0, +) > 0)
                #expect(h.gateway.inFlightCount == 0)
            }
        }

        @Test func aFailureReachesEveryWaiterAndIsNotKept() async throws {
            try await Loopback.run { loopback in
                try await loopback.setFaults(#"{"/search": {"status": 503, "latencyMs": 300}}"#)
                let h = try Self.gateway(loopback)
                let query = #"{ artist(name: "AC/DC") { name } }"#
                let failed = try await Self.concurrently(h, query, times: 4)
                #expect(try await loopback.requestLog().entries.count == 1)
                for response in failed {
                    #expect(response.result.errors.first?.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
                    #expect(response.result.errors.first?.path == [.key("artist")])
                }
                #expect(failed.map(\.counts.totalRequests).reduce(0, +) == 1)
                #expect(failed.map(\.counts.deduplicated).reduce(0, +) == 3)

                try await loopback.setFaults("{}")
                let recovered = try await h.query(query)
                #expect(recovered.result.errors == [])
                #expect(recovered.counts.totalRequests == 1)  // the failure was not cached
                #expect(try await loopback.requestLog().entries.count == 2)
            }
        }

        @Test func aCancelledSenderDoesNotCancelTheSendItsWaitersShare() async throws {
            try await Loopback.run { loopback in
                try await loopback.setFaults(#"{"/search": {"latencyMs": 500}}"#)
                let h = try Self.gateway(loopback)
                let query = #"{ artist(name: "AC/DC") { name } }"#
                let sender = Task { try await h.query(query) }
                try await Self.waitUntil { h.gateway.inFlightCount == 1 }
                let waiter = Task { try await h.query(query) }
                try await Task.sleep(for: .milliseconds(100))
                sender.cancel()
                let answer = try await waiter.value
                #expect(answer.result.errors == [])
                #expect(answer.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(answer.counts.deduplicated == 1)
                #expect(answer.counts.totalRequests == 0)
                _ = try await sender.value
                #expect(try await loopback.requestLog().entries.count == 1)
                // The shared answer was kept: the cancelled request's send filled the cache.
                #expect(try await h.query(query).counts.cacheHits == 1)
            }
        }

        @Test func aCancelledWaiterLeavesAloneAndTheSenderGetsItsAnswer() async throws {
            try await Loopback.run { loopback in
                try await loopback.setFaults(#"{"/search": {"latencyMs": 500}}"#)
                let h = try Self.gateway(loopback)
                let query = #"{ artist(name: "AC/DC") { name } }"#
                let sender = Task { try await h.query(query) }
                try await Self.waitUntil { h.gateway.inFlightCount == 1 }
                let waiter = Task { try await h.query(query) }
                try await Task.sleep(for: .milliseconds(100))
                waiter.cancel()
                let gone = try await waiter.value
                #expect(gone.counts.totalRequests == 0)
                let answer = try await sender.value
                #expect(answer.result.errors == [])
                #expect(answer.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(answer.counts.totalRequests == 1)
                #expect(try await loopback.requestLog().entries.count == 1)
            }
        }

        /// Polls `condition` every 5 ms for at most 10 s.
        static func waitUntil(_ condition: () -> Bool) async throws {
            for _ in 0..<2_000 {
                if condition() { return }
                try await Task.sleep(for: .milliseconds(5))
            }
            Issue.record("condition not met within 10 s")
        }
    }
}

@Suite struct InFlightRequestTests {
    static let response = UpstreamResponse(status: 200, body: Array("ok".utf8))

    @Test func everyWaiterGetsTheOutcomeAndLaterCallersStartAfresh() async throws {
        let table = InFlightRequests()
        #expect(table.joinOrClaim("k") == nil)  // claimed
        let flight = try #require(table.joinOrClaim("k"))
        let waiters = (0..<3).map { _ in Task { try await flight.wait() } }
        while !flight.hasWaiters { await Task.yield() }
        table.finish("k", .response(Self.response, expires: nil))
        for waiter in waiters {
            guard case .response(let response, _) = try await waiter.value else {
                Issue.record("expected the response")
                continue
            }
            #expect(response.body == Self.response.body)
        }
        // Finished: a waiter arriving now gets it at once, and the key can be claimed again.
        guard case .response = try await flight.wait() else { throw HarnessError("expected the response") }
        #expect(table.count == 0)
        #expect(table.joinOrClaim("k") == nil)
    }

    @Test func aCancelledWaiterLeavesWithoutTheOutcome() async throws {
        let table = InFlightRequests()
        #expect(table.joinOrClaim("k") == nil)
        let flight = try #require(table.joinOrClaim("k"))
        let staying = Task { try await flight.wait() }
        let leaving = Task { try await flight.wait() }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        // Cancelled before it ever waited: it leaves too, and nobody else does.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await flight.wait()
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        table.finish("k", .abandoned)
        guard case .abandoned = try await staying.value else { throw HarnessError("expected abandoned") }
    }
}
