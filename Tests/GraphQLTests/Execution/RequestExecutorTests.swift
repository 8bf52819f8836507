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
      state.withLock { $0.inside += 1; $0.most = max($0.most, $0.inside) }
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
        guard case .json(.object(let object)) = source, case .int(let i)? = object["i"] else { return .json(.null) }
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
