import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// `Gateway.start`: what needs no upstream is answered on the caller's thread; what does is
    /// handed back, and gives what `execute` gives.
    @Suite struct GatewayStart {
        static func prepared(_ h: GatewayHarness, _ query: String) throws -> PreparedDocument {
            guard case .success(let prepared) = h.gateway.prepare(query) else { throw HarnessError("rejected") }
            return prepared
        }

        @Test func anOperationThatReadsNoUpstreamIsFinishedAtOnce() async throws {
            try await GatewayHarness.run { h in
                let typename = try Self.prepared(h, "{ __typename }")
                guard
                    case .finished(let response) = h.gateway.start(
                        prepared: typename, operationName: nil, variables: JSONObject())
                else {
                    Issue.record("{ __typename } was left pending")
                    return
                }
                #expect(String(decoding: response.result.dataJSON ?? [], as: UTF8.self) == #"{"__typename":"Query"}"#)
                #expect(response.counts.totalRequests == 0)
                #expect(try await h.loopback.requestLog().entries.isEmpty)
            }
        }

        @Test func anOperationThatReadsAnUpstreamIsPendingAndAnswersAsExecuteDoes() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                let query = #"{ artist(name: "Iron Maiden") { name } }"#
                let started = h.gateway.start(
                    prepared: try Self.prepared(h, query), operationName: nil, variables: JSONObject())
                guard case .pending = started else {
                    Issue.record("an upstream read was finished without waiting")
                    return
                }
                // Nothing is sent before the rest is awaited.
                #expect(try await h.loopback.requestLog().entries.isEmpty)
                let fromStart = await started.response
                let fromExecute = try await h.query(query)
                #expect(
                    String(decoding: fromStart.result.dataJSON ?? [], as: UTF8.self)
                        == #"{"artist":{"name":"Iron Maiden"}}"#)
                #expect(fromStart.result.dataJSON == fromExecute.result.dataJSON)
                #expect(fromStart.counts.totalRequests == 1)
                #expect(fromExecute.counts.totalRequests == 1)
            }
        }
    }
}
