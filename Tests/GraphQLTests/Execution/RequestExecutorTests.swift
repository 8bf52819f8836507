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

/// Only child tasks take the request's serial executor: a lone hole (nothing to overlap
/// with) runs, and resumes after waiting, where the request's task runs, never hopping to a
/// `RequestExecutor` queue (issue 15: the gateway's thread answers it); holes filled
/// concurrently still take turns on that queue.
@Suite struct LoneHoleExecutorTests {
    /// Whether each field's resolver ran in a task that prefers a task executor (the request's).
    final class Preferences: Sendable {
        private let preferring = Mutex<[String: Bool]>([:])
        func note(_ field: String) {
            let prefers = withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil }
            preferring.withLock { $0[field] = prefers }
        }
        subscript(_ field: String) -> Bool? { preferring.withLock { $0[field] } }
    }

    struct Resolvers: ExecutionResolvers {
        let preferences: Preferences
        func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
            guard ["a", "b", "c"].contains(field.name) else { return nil }
            return AsyncResolver { _, _, _ in
                await Task.yield()
                preferences.note(field.name)
                return .json(.int(1))
            }
        }
    }

    @Test func aLoneHoleTakesNoExecutorAndConcurrentHolesTakeTheRequests() async throws {
        let schema = try Harness.schema("type Query { a: Int b: Int c: Int }")
        let preferences = Preferences()
        let lone = await execute(
            schema: schema, document: try parse("{ a }"), source: Source("{ a }"),
            resolvers: Resolvers(preferences: preferences))
        #expect(String(decoding: lone.dataJSON ?? [], as: UTF8.self) == #"{"a":1}"#)
        let both = await execute(
            schema: schema, document: try parse("{ b c }"), source: Source("{ b c }"),
            resolvers: Resolvers(preferences: preferences))
        #expect(String(decoding: both.dataJSON ?? [], as: UTF8.self) == #"{"b":1,"c":1}"#)
        #expect(preferences["a"] == false)
        #expect(preferences["b"] == true)
        #expect(preferences["c"] == true)
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
        // Cancelled from a thread of its own while `items` works: a cancel from this test's
        // task came too late when the whole suite ran, since `items` blocks one of the two
        // threads of the cooperative pool (2 cores) and other tests' blocking work the other,
        // so this task only ran again after `items` had finished.
        let canceller = Thread {
            while log.names.isEmpty { Thread.sleep(forTimeInterval: 0.005) }
            Thread.sleep(forTimeInterval: 0.02)
            task.cancel()
        }
        canceller.start()
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
