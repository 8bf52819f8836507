// A batch's values are completed in one walk, one segment each, and filled holes are
// patched in rather than copied (FinishResponse.swift). Null propagation must not see the
// difference: the same fields resolved synchronously, awaited one by one (`.later`) and
// loaded in batches (`.load(_:from:)`) give the same response, including a value that is
// itself pending next to one that fails while it is completed, failures with and without a
// nullable position inside the value, and pending values inside batched ones. (It passes
// before that change too: it pins behaviour, it does not mark a bug.)
import Synchronization
import Testing

@testable import GraphQL

@Suite struct BatchedWalkTests {
    static let schema: Schema = {
        do {
            return try Harness.schema(
                """
                type Query { rows: [Row]! }
                type Row { id: ID! detail: Detail details: [Detail] }
                type Detail { id: ID! note: String! slow: String sub: Detail strictSub: Detail! }
                """)
        } catch {
            preconditionFailure("test schema does not build: \(error)")
        }
    }()

    static let query = """
        {
          rows {
            id
            detail { id note slow sub { id note } strictSub { id } }
            details { id note sub { id note slow } strictSub { id note } }
          }
        }
        """

    enum Style: CaseIterable { case sync, later, batched }

    @Test func batchedLaterAndSynchronousFieldsGiveTheSameResponse() async throws {
        var responses: [Style: (data: String, errors: [String])] = [:]
        for style in Style.allCases {
            let table = DetailTable()
            let result = try await Self.execute(style, table)
            responses[style] = (
                String(decoding: result.dataJSON ?? [], as: UTF8.self),
                result.errors.map { String(decoding: JSONWriter.serialize($0.json), as: UTF8.self) }.sorted()
            )
            if style == .batched {
                // The rows' details are one batch each (ExecutorBatchingTests counts the rest).
                #expect(table.calls("detail") == 1)
                #expect(table.calls("details") == 1)
            }
        }
        let batched = try #require(responses[.batched])
        #expect(responses[.sync]?.data == batched.data)
        #expect(responses[.later]?.data == batched.data)
        #expect(responses[.later]?.errors == batched.errors)
        // A synchronous failure nulls its position before a sibling's pending work starts, so
        // that work never runs (here d6-1's sub, whose `slow` fails); awaited siblings run
        // and report. The same before segmented walks: no change of behaviour here.
        #expect(
            responses[.sync]?.errors == batched.errors.filter { !$0.contains(#""path":["rows",6,"details",1,"sub""#) })

        let data = try JSONReader.parse(Array(batched.data.utf8))
        let rows = try #require(data["rows"]?.arrayValue)
        #expect(rows.count == 12)
        // r0: a plain detail; its sub d0s fails (nullable: null in place).
        #expect(rows[0]["detail"]?["id"] == .string("d0"))
        #expect(rows[0]["detail"]?["sub"] == .null)
        #expect(rows[0]["detail"]?["strictSub"]?["id"] == .string("d0x"))
        // r1: the detail is itself pending (a hole that is its segment's whole value),
        // followed by r2's detail, which fails while it is completed (no note): dropping
        // that segment must keep r1's hole.
        #expect(rows[1]["detail"]?["id"] == .string("d1"))
        #expect(rows[1]["detail"]?["note"] == .string("note d1"))
        #expect(rows[2]["detail"] == .null)
        #expect(rows[2]["id"] == .string("r2"))
        // r3: the loader fails the key.
        #expect(rows[3]["detail"] == .null)
        // r5's pending detail has a strictSub that fails, with no nullable position inside
        // the detail: the detail is null.
        #expect(rows[5]["detail"] == .null)
        #expect(rows[4]["detail"]?["slow"] == .string("slow d4"))
        // Lists: r6's second detail has a failing strictSub, a nullable item: only it is null.
        let details6 = try #require(rows[6]["details"]?.arrayValue)
        #expect(details6.count == 3)
        #expect(details6[1] == .null)
        #expect(details6[0]["id"] == .string("d6-0"))
        #expect(details6[2]["sub"]?["slow"] == .string("slow d6-2s"))
        // A pending item in a batched list.
        #expect(rows[9]["details"]?[1]?["id"] == .string("d9-1"))
        #expect(batched.errors.contains { $0.contains(#""path":["rows",2,"detail","note"]"#) })
        #expect(batched.errors.contains { $0.contains(#""path":["rows",5,"detail","strictSub"]"#) })
        #expect(batched.errors.contains { $0.contains(#""path":["rows",6,"details",1,"strictSub"]"#) })
        // 3 missing notes, 3 failed details, 2 failed strict subs, 13 failed subs, 12 failed `slow`s.
        #expect(batched.errors.count == 33)
    }

    static func execute(_ style: Style, _ table: DetailTable) async throws -> ExecutionResult {
        var resolvers: [String: any FieldResolver] = [
            "Query.rows": SyncResolver { _, _, _ in
                .json(.array((0..<12).map { .object(JSONObject([("id", .string("r\($0)"))])) }))
            },
            "Detail.slow": AsyncResolver { source, _, _ in
                let id = try key(source)
                if id.hasSuffix("3") || id.hasSuffix("-1s") { throw GraphQLError("slow \(id) failed") }
                return .json(.string("slow \(id)"))
            },
        ]
        for (field, loader) in [
            ("Row.detail", table.detail), ("Row.details", table.details), ("Detail.sub", table.sub),
            ("Detail.strictSub", table.strictSub),
        ] {
            switch style {
            case .sync:
                resolvers[field] = SyncResolver { source, _, _ in try loader.value(for: try key(source)).get() }
            case .later:
                resolvers[field] = AsyncResolver { source, _, _ in try loader.value(for: try key(source)).get() }
            case .batched:
                resolvers[field] = BatchedKeyResolver(loader: loader)
            }
        }
        let source = Source(query)
        return await GraphQL.execute(
            schema: schema, document: try parse(source), source: source, rootValue: .json(.object(JSONObject())),
            resolvers: TableResolvers(table: resolvers))
    }
}

private func key(_ source: FieldValue) throws -> String {
    guard case .json(.object(let object)) = source, case .string(let id)? = object["id"] else {
        throw GraphQLError("no id")
    }
    return id
}

private struct BatchedKeyResolver: FieldResolver {
    let loader: TableLoader
    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        .load(try key(source), from: loader)
    }
}

/// One field's values by parent id, with its batch calls counted.
final class TableLoader: FieldBatchLoader {
    let answer: @Sendable (String) -> Result<FieldValue, any Error>
    private let count = Mutex(0)

    init(_ answer: @escaping @Sendable (String) -> Result<FieldValue, any Error>) { self.answer = answer }

    func value(for key: String) -> Result<FieldValue, any Error> { answer(key) }

    func loadFieldValues(_ keys: [String]) async -> [Result<FieldValue, any Error>] {
        count.withLock { $0 += 1 }
        return keys.map(answer)
    }

    var calls: Int { count.withLock { $0 } }
}

/// The values behind the batched fields, chosen by the digits of their keys so that every
/// kind of value and failure appears next to the others in one batch.
final class DetailTable: Sendable {
    let detail = TableLoader { row in
        let n = Int(row.dropFirst()) ?? 0
        switch n % 4 {
        case 1: return .success(.pending(PendingValue { detailObject("d\(n)") }))
        case 2: return .success(.json(.object(JSONObject([("id", .string("d\(n)"))]))))  // no note
        case 3: return .failure(GraphQLError("no detail for \(row)"))
        default: return .success(detailObject("d\(n)"))
        }
    }
    let details = TableLoader { row in
        let n = Int(row.dropFirst()) ?? 0
        let items: [FieldValue] = (0..<3).map { i in
            let id = "d\(n)-\(i)"
            return n % 3 == 0 && i == 1 ? .pending(PendingValue { detailObject(id) }) : detailObject(id)
        }
        return .success(.list(items))
    }
    let sub = TableLoader { id in
        if id == "d0" || id.hasSuffix("-0") { return .failure(GraphQLError("no sub for \(id)")) }
        if id.hasSuffix("-2") { return .success(.pending(PendingValue { detailObject(id + "s") })) }
        return .success(detailObject(id + "s"))
    }
    let strictSub = TableLoader { id in
        if id == "d5" || id == "d6-1" { return .failure(GraphQLError("no strict sub for \(id)")) }
        return .success(detailObject(id + "x"))
    }

    func calls(_ field: String) -> Int {
        switch field {
        case "detail": return detail.calls
        case "details": return details.calls
        case "sub": return sub.calls
        default: return strictSub.calls
        }
    }
}

private func detailObject(_ id: String) -> FieldValue {
    .json(.object(JSONObject([("id", .string(id)), ("note", .string("note \(id)"))])))
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    fileprivate subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    fileprivate var arrayValue: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }
}
