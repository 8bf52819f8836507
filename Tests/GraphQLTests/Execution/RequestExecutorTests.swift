import Foundation
import Synchronization
import Testing

@testable import GraphQL

/// One request's asynchronous work runs on one serial executor (RequestExecutor): its
/// resolvers' bodies never overlap, however many cores there are, while separate requests
/// still run side by side.
@Suite struct RequestExecutorTests {
    /// Tracks how many resolver bodies are inside their busy section at once.
    final class Overlap: Sendable {
        private let state = Mutex((inside: 0, most: 0))
        func busy() {
            state.withLock {
                $0.inside += 1
                $0.most = max($0.most, $0.inside)
            }
            // Long enough that two threads running bodies at the same time would overlap.
            Thread.sleep(forTimeInterval: 0.002)
            state.withLock { $0.inside -= 1 }
        }
        var most: Int { state.withLock { $0.most } }
    }

    struct Resolvers: ExecutionResolvers {
        let overlap: Overlap
        func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
            guard field.name == "n" else { return nil }
            return AsyncResolver { source, _, _ in
                await Task.yield()
                overlap.busy()
                guard case .json(.object(let object)) = source, case .int(let i)? = object["i"] else {
                    return .json(.null)
                }
                return .json(.int(i * 2))
            }
        }
    }

    @Test func aRequestsAsyncResolversRunOneAtATime() async throws {
        let schema = try Harness.schema("type Query { items: [Item!]! } type Item { n: Int }")
        let items = (0..<40).map { JSONValue.object(JSONObject([("i", .int($0))])) }
        let root = FieldValue.json(.object(JSONObject([("items", .array(items))])))
        let overlap = Overlap()
        let document = try parse("{ items { n } }")
        let result = await execute(
            schema: schema, document: document, source: Source("{ items { n } }"), rootValue: root,
            resolvers: Resolvers(overlap: overlap))
        #expect(result.errors.isEmpty)
        let expected = (0..<40).map { "{\"n\":\($0 * 2)}" }.joined(separator: ",")
        #expect(String(decoding: result.dataJSON ?? [], as: UTF8.self) == "{\"items\":[\(expected)]}")
        #expect(overlap.most == 1)
    }
}

/// A cancelled request stops resolving: values that arrive after cancellation are not
/// completed, so their sub-fields' resolvers never run.
@Suite struct CancelledExecutionTests {
    struct Resolvers: ExecutionResolvers {
        let log: CallLog
        func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
            switch field.name {
            case "items":
                return AsyncResolver { _, _, _ in
                    log.note("items")
                    // Finishes regardless of cancellation, as CPU-bound or non-cooperative work does.
                    blockingSleep(0.2)
                    return .json(.array((0..<5).map { .object(JSONObject([("i", .int($0))])) }))
                }
            case "n":
                return AsyncResolver { _, _, _ in
                    log.note("n")
                    return .json(.int(1))
                }
            default:
                return nil
            }
        }
    }

    @Test func valuesArrivingAfterCancellationAreNotCompleted() async throws {
        let schema = try Harness.schema("type Query { items: [Item!] } type Item { n: Int }")
        let log = CallLog()
        let task = Task {
            await execute(
                schema: schema, document: try parse("{ items { n } }"), source: Source("{ items { n } }"),
                resolvers: Resolvers(log: log))
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = try await task.value
        #expect(log.names == ["items"])
        #expect(String(decoding: result.dataJSON ?? [], as: UTF8.self) == #"{"items":null}"#)
        #expect(result.errors.map(\.message) == ["Request cancelled."])
        #expect(result.errors.first?.path?.map(\.description) == ["items"])
    }
}

/// Blocks the calling thread (not cancellable), like a resolver busy computing.
private func blockingSleep(_ seconds: TimeInterval) {
    Thread.sleep(forTimeInterval: seconds)
}
