import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// `Gateway.executeIncrementally`: deferred fragments share the request's loaders with the
    /// initial payload, so `@defer` costs no upstream request more than the same query without it.
    @Suite struct GatewayIncremental {
        /// The nested Iron Maiden query with each track's videos deferred.
        static let ironMaidenDeferred =
            #"{ artist(name: "Iron Maiden") { name albums { title tracks { title ... @defer(label: "videos") { videos(first: 1) { title url } } } } } }"#

        /// Every payload of one incremental execution, in order.
        static func payloads(_ h: GatewayHarness, _ query: String, stopAfter: Int? = nil) async throws
            -> [GatewayIncrementalPayload]
        {
            guard case .success(let prepared) = h.gateway.prepare(query) else {
                Issue.record("query rejected: \(query)")
                throw HarnessError("query rejected")
            }
            var payloads: [GatewayIncrementalPayload] = []
            await h.gateway.executeIncrementally(prepared: prepared, operationName: nil, variables: JSONObject()) {
                payloads.append($0)
                return stopAfter.map { payloads.count < $0 } ?? true
            }
            return payloads
        }

        @Test func deferredVideosMakeTheSame153RequestsAndMergeIntoTheWholeAnswer() async throws {
            try await GatewayHarness.run { h in
                let whole = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(whole.counts.totalRequests == 153)
            }
            try await GatewayHarness.run { h in
                let payloads = try await Self.payloads(h, Self.ironMaidenDeferred)
                #expect(payloads.count >= 2)
                guard case .initial(let initial) = payloads.first?.payload else {
                    Issue.record(
                        "no initial payload: \(payloads.map { String(decoding: $0.serialized(), as: UTF8.self) })")
                    return
                }
                // The first payload has the tracks and no videos; 213 fragments are pending.
                let first = try #require(initial.result.data)
                #expect(first["artist", "albums", 0, "tracks", 0, "title"] != nil)
                #expect(first["artist", "albums", 0, "tracks", 0, "videos"] == nil)
                #expect(initial.pending.count == 213)
                #expect(initial.pending.allSatisfy { $0.label == "videos" })
                #expect(payloads.dropLast().allSatisfy { !$0.isLast && $0.extensions.count == 0 })
                let last = try #require(payloads.last)
                #expect(last.isLast)
                #expect(last.counts.totalRequests == 153)
                #expect(last.extensions["upstream"]?["requests"] == .int(153))

                let merged = try IncrementalMerge.merge(payloads.map(\.payload))
                let log = try await h.loopback.requestLog().entries
                #expect(log.count == 153)
                #expect(log.filter { $0.path == "/youtube/v3/search" }.count == 150)

                let plain = try await GatewayHarness.run { fresh in
                    try await fresh.query(GatewayRequestCounts.ironMaiden)
                }
                #expect(merged.errors.isEmpty)
                #expect(merged.data == plain.result.data)
            }
        }

        @Test func withoutDeferTheAnswerIsOneCompletePayload() async throws {
            try await GatewayHarness.run { h in
                let payloads = try await Self.payloads(h, #"{ artist(name: "AC/DC") { name } }"#)
                #expect(payloads.count == 1)
                guard case .complete(let result) = payloads.first?.payload else {
                    Issue.record("not a complete payload")
                    return
                }
                #expect(result.data?["artist", "name"] == .string("AC/DC"))
                #expect(payloads.first?.extensions["upstream"]?["requests"] == .int(1))
            }
        }

        @Test func theSchemaCarriesDeferAndStream() async throws {
            try await GatewayHarness.run { h in
                #expect(h.gateway.schema.supportsIncrementalDelivery)
                let response = try await h.query("{ __schema { directives { name locations args { name } } } }")
                let directives = response.result.data?["__schema", "directives"]
                guard case .array(let list)? = directives else {
                    Issue.record("no directives: \(String(describing: directives))")
                    return
                }
                let names = list.compactMap { $0["name"] }
                #expect(names.contains(.string("defer")))
                #expect(names.contains(.string("stream")))
                let stream = list.first { $0["name"] == .string("stream") }
                #expect(
                    stream?["args"]
                        == .array(["initialCount", "if", "label"].map { .object(JSONObject([("name", .string($0))])) }))
            }
        }

        @Test func anInvalidDeferIsRefusedBeforeExecution() async throws {
            try await GatewayHarness.run { h in
                guard
                    case .failure(let rejection) = h.gateway.prepare(
                        #"query { ... @defer(label: "a") { artist(name: "AC/DC") { name ... @defer(label: "a") { id } } } }"#
                    )
                else {
                    Issue.record("a duplicate label was accepted")
                    return
                }
                #expect(rejection.errors.contains { $0.extensions["rule"] == .string("DeferStreamDirectiveLabel") })
                let log = try await h.loopback.requestLog().entries
                #expect(log.isEmpty)
            }
        }

        @Test func aClientThatLeavesAfterTheFirstPayloadStopsTheDeferredUpstreamCalls() async throws {
            try await GatewayHarness.run { h in
                // Each video search takes 400 ms: the deferred work is still running when the
                // client leaves after the first payload.
                try await h.loopback.setFaults(#"{"/youtube/v3/search": {"latencyMs": 400}}"#)
                let payloads = try await Self.payloads(h, Self.ironMaidenDeferred, stopAfter: 1)
                #expect(payloads.count == 1)
                // Nothing is left running or sent afterwards.
                #expect(h.gateway.inFlightCount == 0)
                let atStop = try await h.loopback.requestLog().entries.count
                try await Task.sleep(for: .milliseconds(900))
                let later = try await h.loopback.requestLog().entries.count
                #expect(later == atStop)
                #expect(later < 153)
            }
        }

        /// The request's transports send nothing once it is cancelled, even for the batches its
        /// loaders had dispatched already.
        @Test func cancellingTheRequestStopsItsDeferredWork() async throws {
            // Searches in waves of 16 (400 ms each), so the cancel at 600 ms finds most unsent:
            // with the default cap all 150 go out at once, before any cancel can arrive.
            try await GatewayHarness.configured { $0.searchConcurrency = 16 }.run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search": {"latencyMs": 400}}"#)
                let task = Task {
                    try await Self.payloads(h, Self.ironMaidenDeferred).count
                }
                try await Task.sleep(for: .milliseconds(600))
                task.cancel()
                let count = try await task.value
                #expect(count >= 1)
                let atStop = try await h.loopback.requestLog().entries.count
                try await Task.sleep(for: .milliseconds(900))
                let later = try await h.loopback.requestLog().entries.count
                #expect(atStop < 153)
                #expect(later == atStop)  // sends already started may finish; no new one goes out
            }
        }
    }
}

/// Merges incremental payloads the way a client does (the RFC's §7 "Response"): deferred data
/// into the object at its path, streamed items onto the end of the list at theirs.
enum IncrementalMerge {
    struct Merged {
        var data: JSONValue?
        var errors: [GraphQLError]
    }

    static func merge(_ payloads: [IncrementalPayload]) throws -> Merged {
        var merged = Merged(data: nil, errors: [])
        for payload in payloads {
            switch payload {
            case .complete(let result):
                merged = Merged(data: result.data, errors: result.errors)
            case .initial(let initial):
                merged = Merged(data: initial.result.data, errors: initial.result.errors)
            case .subsequent(let subsequent):
                for entry in subsequent.incremental {
                    merged.errors += entry.errors
                    if let bytes = entry.dataJSON {
                        guard case .object(let fields) = try JSONReader.parse(bytes) else { continue }
                        update(&merged.data, at: entry.path[...]) { value in
                            guard case .object(var object)? = value else { return }
                            for (key, field) in fields.entries { object[key] = field }
                            value = .object(object)
                        }
                    } else {
                        let items = try entry.itemsJSON.map { try JSONReader.parse($0) }
                        update(&merged.data, at: entry.path[...]) { value in
                            guard case .array(let list)? = value else { return }
                            value = .array(list + items)
                        }
                    }
                }
                for completed in subsequent.completed { merged.errors += completed.errors ?? [] }
            }
        }
        return merged
    }

    private static func update(
        _ value: inout JSONValue?, at path: ArraySlice<PathComponent>, _ change: (inout JSONValue?) -> Void
    ) {
        guard let step = path.first else {
            change(&value)
            return
        }
        switch (value, step) {
        case (.object(var object)?, .key(let key)):
            var child = object[key]
            update(&child, at: path.dropFirst(), change)
            object[key] = child
            value = .object(object)
        case (.array(var list)?, .index(let index)) where list.indices.contains(index):
            var child: JSONValue? = list[index]
            update(&child, at: path.dropFirst(), change)
            list[index] = child ?? .null
            value = .array(list)
        default:
            return
        }
    }
}
