import Synchronization
import Testing

@testable import GraphQL

/// Resolvers that count how often the executor asks which resolver a field has: once per
/// field and type each time a plan is built.
final class CountingResolvers: ExecutionResolvers {
    private let asked = Mutex<[String]>([])
    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        asked.withLock { $0.append("\(typeName).\(field.name)") }
        return nil
    }
    var questions: [String] { asked.withLock { $0 } }
}

@Suite struct ExecutionPlanCacheTests {
    let schema: Schema
    init() throws {
        schema = try Harness.schema(
            """
            type Query { artist(name: String): Artist }
            type Artist { name: String albums(first: Int = 2): [Album] }
            type Album { title: String }
            """)
    }

    static let data = #"{"artist":{"name":"AC/DC","albums":[{"title":"High Voltage"},{"title":"Powerage"}]}}"#

    func run(
        _ prepared: PreparedDocument, resolvers: CountingResolvers, variables: String = "{}", operation: String? = nil
    ) throws -> String {
        guard case .object(let variableValues) = try JSONReader.parse(variables) else { return "bad variables" }
        let result = executeSynchronously(
            schema: schema, document: prepared.document, source: prepared.source,
            rootValue: .json(try JSONReader.parse(Self.data)),
            variableValues: variableValues, operationName: operation, resolvers: resolvers, planCache: prepared.plans)
        return String(decoding: result.serialized(), as: UTF8.self)
    }

    @Test func aRepeatedDocumentIsPlannedOnce() throws {
        let prepared = try prepareDocument(Source("{ artist { name albums { title } } }"), schema: schema).get()
        let resolvers = CountingResolvers()
        let expected = #"{"data":{"artist":{"name":"AC/DC","albums":[{"title":"High Voltage"},{"title":"Powerage"}]}}}"#
        #expect(try run(prepared, resolvers: resolvers) == expected)
        #expect(resolvers.questions == ["Query.artist", "Artist.name", "Artist.albums", "Album.title"])
        #expect(try run(prepared, resolvers: resolvers) == expected)
        #expect(try run(prepared, resolvers: resolvers) == expected)
        #expect(resolvers.questions.count == 4)  // the second and third executions reused the plan
        #expect(prepared.plans.count == 1)
    }

    @Test func variablesAndOperationsGetPlansOfTheirOwn() throws {
        let prepared = try prepareDocument(
            Source(
                """
                query A($skip: Boolean!) { artist { name @skip(if: $skip) } }
                query B { artist { albums { title } } }
                """), schema: schema
        ).get()
        let resolvers = CountingResolvers()
        #expect(
            try run(prepared, resolvers: resolvers, variables: #"{"skip":true}"#, operation: "A")
                == #"{"data":{"artist":{}}}"#)
        #expect(
            try run(prepared, resolvers: resolvers, variables: #"{"skip":false}"#, operation: "A")
                == #"{"data":{"artist":{"name":"AC/DC"}}}"#)
        #expect(
            try run(prepared, resolvers: resolvers, variables: #"{"skip":true}"#, operation: "A")
                == #"{"data":{"artist":{}}}"#)
        #expect(
            try run(prepared, resolvers: resolvers, operation: "B")
                == #"{"data":{"artist":{"albums":[{"title":"High Voltage"},{"title":"Powerage"}]}}}"#)
        #expect(prepared.plans.count == 3)  // A with skip true, A with skip false, B
    }

    @Test func anArgumentErrorInACachedPlanIsReportedOnEveryReuse() throws {
        // `first: Int! = 2` accepts a nullable variable (its default), but an explicit null
        // fails CoerceArgumentValues: an error the plan holds, reported at each execution.
        let schema = try Harness.schema(
            """
            type Query { artist: Artist }
            type Artist { name: String albums(first: Int! = 2): [Album] }
            type Album { title: String }
            """)
        let prepared = try prepareDocument(
            Source("query Q($n: Int) { artist { albums(first: $n) { title } } }"), schema: schema
        ).get()
        let run = {
            executeSynchronously(
                schema: schema, document: prepared.document, source: prepared.source,
                rootValue: .json(try JSONReader.parse(Self.data)), variableValues: JSONObject([("n", .null)]),
                planCache: prepared.plans)
        }
        let first = try run()
        let second = try run()
        #expect(first.errors.count == 1 && second.errors.count == 1)
        #expect(second.errors.first?.message == first.errors.first?.message)
        #expect(second.errors.first?.path?.map(\.description) == ["artist", "albums"])
        #expect(
            String(decoding: second.serialized(), as: UTF8.self) == String(decoding: first.serialized(), as: UTF8.self))
        #expect(prepared.plans.count == 1)
    }

    @Test func theCacheIsBounded() throws {
        let prepared = try prepareDocument(
            Source("query Q($n: String) { artist(name: $n) { name } }"), schema: schema
        ).get()
        let resolvers = CountingResolvers()
        for n in 0..<(ExecutionPlanCache.capacity + 5) {
            _ = try run(prepared, resolvers: resolvers, variables: #"{"n":"\#(n)"}"#)
        }
        #expect(prepared.plans.count == ExecutionPlanCache.capacity)
    }
}
