// The batching guarantees of DESIGN.md ("Lazy and batched") checked through the real
// executor: GraphQL's `execute` with a `BatchScheduler` as its `ExecutionActivity`, over an
// in-memory batch source whose every batch function call is logged with its keys. Each
// guarantee holds both for resolvers that await a loader (`.later`, a task per field) and
// for resolvers that hand the executor their key (`.load(_:from:)`, a task per batch).
import GraphQL
import Synchronization
import Testing

@testable import DataLoader

extension BatchScheduler: ExecutionActivity {}

@Suite("Batching through the executor", .timeLimit(.minutes(1)))
struct ExecutorBatchingTests {
    static let threeLevels = "{ parents { id name children { id items { id label } } } }"

    @Test(arguments: ResolverStyle.allCases)
    func aThreeLevelQueryMakesOneBatchCallPerLevel(style: ResolverStyle) async throws {
        let source = BatchSource(style: style)
        let result = try await source.execute(Self.threeLevels)
        #expect(result.errors.isEmpty)
        let parents = try #require(result.data?["parents"]?.arrayValue)
        #expect(parents.count == 100)
        let children: [JSONValue] = parents.flatMap { $0["children"]?.arrayValue ?? [] }
        let items: [JSONValue] = children.flatMap { $0["items"]?.arrayValue ?? [] }
        #expect(children.count == 1000)
        #expect(items.count == 12000)
        let deep = result.data?["parents"]?[42]?["children"]?[7]?["items"]?[11]?["id"]
        #expect(deep == .string("p42-c7-i11"))
        #expect(result.data?["parents"]?[99]?["name"] == .string("Parent 99"))

        #expect(source.log("parents").all == [BatchSource.parentIDs])
        #expect(source.log("childrenOf").sortedCalls == [BatchSource.parentIDs.sorted()])
        #expect(source.log("itemsOf").sortedCalls == [BatchSource.childIDs.sorted()])
        #expect(source.log("tags").all == [])
    }

    @Test(arguments: ResolverStyle.allCases)
    func withMaxBatchSizeEachLevelMakesCeilDistinctKeysOverTheLimitCalls(style: ResolverStyle) async throws {
        let source = BatchSource(maxBatchSize: 30, style: style)
        let result = try await source.execute(Self.threeLevels)
        #expect(result.errors.isEmpty)
        #expect(
            result.data?["parents"]?[99]?["children"]?[9]?["items"]?[0]?["label"]
                == .string("Item p99-c9-i0"))
        // ⌈100 / 30⌉ = 4 calls for 100 parents and for their 100 children lists,
        // ⌈1000 / 30⌉ = 34 calls for the items of 1000 children.
        // The calls of one dispatch run concurrently: their arrival order is not the contract.
        #expect(source.log("parents").all.map(\.count).sorted(by: >) == [30, 30, 30, 10])
        #expect(source.log("childrenOf").all.map(\.count).sorted(by: >) == [30, 30, 30, 10])
        #expect(source.log("itemsOf").all.map(\.count).sorted(by: >) == Array(repeating: 30, count: 33) + [10])
        #expect(source.log("parents").all.flatMap { $0 }.sorted() == BatchSource.parentIDs.sorted())
        #expect(source.log("childrenOf").all.flatMap { $0 }.sorted() == BatchSource.parentIDs.sorted())
        #expect(source.log("itemsOf").all.flatMap { $0 }.sorted() == BatchSource.childIDs.sorted())
    }

    @Test(arguments: ResolverStyle.allCases)
    func duplicateKeysAreLoadedOnce(style: ResolverStyle) async throws {
        let source = BatchSource(style: style)
        let result = try await source.execute("{ parents { id tag { id label } } }")
        #expect(result.errors.isEmpty)
        // 100 parents share 7 tags: one call, 7 distinct keys.
        #expect(source.log("tags").sortedCalls == [["t0", "t1", "t2", "t3", "t4", "t5", "t6"]])
        #expect(result.data?["parents"]?[8]?["tag"]?["id"] == .string("t1"))
        #expect(result.data?["parents"]?[13]?["tag"]?["label"] == .string("Tag 6"))
    }

    @Test(arguments: ResolverStyle.allCases)
    func aliasesAskingForTheSameThingShareLoads(style: ResolverStyle) async throws {
        let source = BatchSource(style: style)
        let result = try await source.execute(
            "{ parents { first: children { id } second: children { id items { id } } again: tag { id } tag { label } } }"
        )
        #expect(result.errors.isEmpty)
        #expect(source.log("childrenOf").sortedCalls == [BatchSource.parentIDs.sorted()])
        #expect(source.log("itemsOf").sortedCalls == [BatchSource.childIDs.sorted()])
        #expect(source.log("tags").sortedCalls == [["t0", "t1", "t2", "t3", "t4", "t5", "t6"]])
        #expect(result.data?["parents"]?[5]?["first"]?[3]?["id"] == .string("p5-c3"))
        #expect(result.data?["parents"]?[5]?["second"]?[3]?["items"]?[2]?["id"] == .string("p5-c3-i2"))
        #expect(result.data?["parents"]?[5]?["again"]?["id"] == .string("t5"))
        #expect(result.data?["parents"]?[5]?["tag"]?["label"] == .string("Tag 5"))
    }

    @Test func aLevelWhoseKeysWaitOnASlowSiblingStillBatchesWhole() async throws {
        let gate = Gate()
        // The slow branch's parents come back only after the fast branch's children went out.
        let source = BatchSource { loader, keys in
            if loader == "slow" { await gate.wait() }
            if loader == "childrenOf", keys.contains("p0") { gate.open() }
        }
        let result = try await source.execute(
            "{ parents { children { id } } slowParents { id children { id } } }")
        #expect(result.errors.isEmpty)
        #expect(source.log("slow").all == [["parents"]])
        #expect(
            source.log("childrenOf").sortedCalls == [
                BatchSource.parentIDs.sorted(), ["s0", "s1", "s2", "s3", "s4"],
            ])
        #expect(result.data?["slowParents"]?[4]?["children"]?[9]?["id"] == .string("s4-c9"))
        #expect(result.data?["parents"]?[0]?["children"]?[0]?["id"] == .string("p0-c0"))
    }

    @Test func aSlowUnrelatedBranchDoesNotHoldBatchesBack() async throws {
        let gate = Gate()
        let events = CallLog<String>()
        // The slow field answers only once the fast branch's third level was dispatched; if
        // the slow call held dispatch back, that would never happen (the gate gives up after
        // 5 s and the event order shows it).
        let source = BatchSource { loader, keys in
            switch loader {
            case "slow":
                let opened = await gate.wait(orGiveUpAfter: .seconds(5))
                events.record([opened ? "slow answered" : "slow gave up"])
            case "itemsOf":
                events.record(["itemsOf called"])
                gate.open()
            default: break
            }
        }
        let result = try await source.execute("{ slowGreeting parents { children { items { id } } } }")
        #expect(result.errors.isEmpty)
        #expect(result.data?["slowGreeting"] == .string("hello"))
        #expect(events.all == [["itemsOf called"], ["slow answered"]])
        #expect(source.log("parents").all.count == 1)
        #expect(source.log("childrenOf").all.count == 1)
        #expect(source.log("itemsOf").all.count == 1)
    }

    @Test(arguments: ResolverStyle.allCases)
    func perKeyErrorsLandAtTheirPathsAndTheRestResolves(style: ResolverStyle) async throws {
        let source = BatchSource(failingChildrenOf: ["p3", "p77"], style: style)
        let result = try await source.execute(
            """
            {
              parents {
                id
                children { id }
              }
            }
            """)
        let errors = result.errors.sorted { $0.message < $1.message }.map(\.json)
        #expect(
            errors == [
                try JSONReader.parse(
                    #"{"message":"no children for p3","locations":[{"line":4,"column":5}],"path":["parents",3,"children"],"extensions":{"code":"NOT_FOUND"}}"#
                ),
                try JSONReader.parse(
                    #"{"message":"no children for p77","locations":[{"line":4,"column":5}],"path":["parents",77,"children"],"extensions":{"code":"NOT_FOUND"}}"#
                ),
            ])
        #expect(result.data?["parents"]?[3]?["children"] == .null)
        #expect(result.data?["parents"]?[3]?["id"] == .string("p3"))
        #expect(result.data?["parents"]?[77]?["children"] == .null)
        #expect(result.data?["parents"]?[4]?["children"]?[9]?["id"] == .string("p4-c9"))
        #expect(source.log("childrenOf").all.count == 1)
    }

    @Test func aFailedNonNullBatchedFieldNullsItsNearestNullablePosition() async throws {
        // Child.items is [Item!]! and children is [Child!]: items failing for p3-c4 nulls the
        // whole children list of p3 (one error), and nothing else.
        for style in ResolverStyle.allCases {
            let source = BatchSource(failingItemsOf: ["p3-c4"], style: style)
            let result = try await source.execute("{ parents { id children { id items { id } } } }")
            #expect(
                result.errors.map(\.json) == [
                    try JSONReader.parse(
                        #"{"message":"no items for p3-c4","locations":[{"line":1,"column":30}],"path":["parents",3,"children",4,"items"]}"#
                    )
                ], "\(style)")
            #expect(result.data?["parents"]?[3]?["children"] == .null, "\(style)")
            #expect(result.data?["parents"]?[3]?["id"] == .string("p3"), "\(style)")
            #expect(result.data?["parents"]?[2]?["children"]?[4]?["items"]?[11]?["id"] == .string("p2-c4-i11"))
            #expect(source.log("itemsOf").all.count == 1, "\(style)")
        }
    }

    @Test func batchedFieldsTakeOneTaskPerLoaderAndLevelNotOnePerField() async throws {
        let query = "{ parents { id tag { label } children { id items { id } } } }"
        let batched = BatchSource(style: .batched)
        let result = try await batched.execute(query)
        #expect(result.errors.isEmpty)
        #expect(result.data?["parents"]?[9]?["children"]?[2]?["items"]?[5]?["id"] == .string("p9-c2-i5"))
        #expect(result.data?["parents"]?[9]?["tag"]?["label"] == .string("Tag 2"))
        // Counted units: the operation (1); level 2 has two loaders (tags, children of 100
        // parents): a task each (2), and the root's walk counted again once they report (1);
        // level 3 (items of 1,000 children) is one batch, run inline.
        #expect(batched.executorEnters == 4)
        #expect(batched.log("tags").all.count == 1)
        #expect(batched.log("itemsOf").all.count == 1)
        // Awaiting each load in its own task: 100 + 100 + 1,000 tasks at least.
        let awaiting = BatchSource(style: .awaiting)
        let same = try await awaiting.execute(query)
        #expect(same.data == result.data)
        #expect(awaiting.executorEnters > 1200)
    }

    @Test func fieldsNotSelectedNeverCallTheirLoader() async throws {
        let source = BatchSource()
        let result = try await source.execute("{ parents { id name } }")
        #expect(result.errors.isEmpty)
        #expect(source.log("parents").all == [BatchSource.parentIDs])
        #expect(source.log("childrenOf").all == [])
        #expect(source.log("itemsOf").all == [])
        #expect(source.log("tags").all == [])
        #expect(source.log("slow").all == [])

        let skipped = BatchSource()
        let skippedResult = try await skipped.execute(
            "query ($with: Boolean = false) { parents { id children @include(if: $with) { id } tag @skip(if: true) { id } } }"
        )
        #expect(skippedResult.errors.isEmpty)
        #expect(skippedResult.data?["parents"]?[0] == .object(JSONObject([("id", .string("p0"))])))
        #expect(skipped.log("childrenOf").all == [])
        #expect(skipped.log("tags").all == [])
    }
}

// MARK: - The in-memory batch source

/// How the resolvers read through loaders.
enum ResolverStyle: CaseIterable, Sendable, CustomTestStringConvertible {
    /// `.later { try await loader.load(key) }`: a task per field.
    case awaiting
    /// `.load(key, from: loader)`: the executor loads a level's keys of one loader together.
    case batched

    var testDescription: String { self == .awaiting ? "awaiting loads" : "batched loads" }
}

/// A loader as the executor's batch source (`Resolution.load`).
final class FieldLoader: FieldBatchLoader {
    let loader: DataLoader<String, JSONValue>
    init(_ loader: DataLoader<String, JSONValue>) { self.loader = loader }

    func loadFieldValues(_ keys: [String]) async -> [Result<FieldValue, any Error>] {
        await loader.loadMany(keys).map { $0.map(FieldValue.json) }
    }
}

/// The executor's `activity`: the scheduler, with the executor's `enter()` calls counted
/// (one per operation, per spawned task, and per return from awaiting child tasks).
final class CountedActivity: ExecutionActivity {
    let scheduler: BatchScheduler
    private let enters = Mutex(0)
    init(_ scheduler: BatchScheduler) { self.scheduler = scheduler }

    func enter() {
        enters.withLock { $0 += 1 }
        scheduler.enter()
    }

    func leave() { scheduler.leave() }

    var count: Int { enters.withLock { $0 } }
}

/// 100 parents × 10 children × 12 items, and 7 tags shared by the parents; a slow source
/// behind a hook. Every loader of one execution is created with that execution's scheduler,
/// and every batch function call is logged per loader name.
final class BatchSource: Sendable {
    static let schema: Schema = {
        do {
            return try buildSchema(
                sdl: """
                    type Query {
                      parents: [Parent!]!
                      slowParents: [Parent!]!
                      slowGreeting: String
                    }
                    type Parent {
                      id: ID!
                      name: String!
                      tag: Tag
                      children: [Child!]
                    }
                    type Tag {
                      id: ID!
                      label: String!
                    }
                    type Child {
                      id: ID!
                      items: [Item!]!
                    }
                    type Item {
                      id: ID!
                      label: String!
                    }
                    """)
        } catch {
            preconditionFailure("test schema does not build: \(error)")
        }
    }()

    static let parentIDs = (0..<100).map { "p\($0)" }
    static let childIDs = parentIDs.flatMap { parent in (0..<10).map { "\(parent)-c\($0)" } }

    typealias Hook = @Sendable (_ loader: String, _ keys: [String]) async -> Void

    private let logs: [String: CallLog<String>]
    private let maxBatchSize: Int
    private let failingChildrenOf: Set<String>
    private let failingItemsOf: Set<String>
    private let style: ResolverStyle
    private let hook: Hook?
    private let lastEnters = Mutex(0)

    init(
        maxBatchSize: Int = .max, failingChildrenOf: Set<String> = [], failingItemsOf: Set<String> = [],
        style: ResolverStyle = .awaiting, hook: Hook? = nil
    ) {
        self.logs = Dictionary(
            uniqueKeysWithValues: ["parents", "childrenOf", "itemsOf", "tags", "slow"].map {
                ($0, CallLog<String>())
            })
        self.maxBatchSize = maxBatchSize
        self.failingChildrenOf = failingChildrenOf
        self.failingItemsOf = failingItemsOf
        self.style = style
        self.hook = hook
    }

    func log(_ loader: String) -> CallLog<String> {
        logs[loader] ?? CallLog()
    }

    /// The executor's `enter()` calls during the last `execute`.
    var executorEnters: Int { lastEnters.withLock { $0 } }

    /// Parses and executes `query` with fresh loaders and scheduler, as one request would.
    func execute(_ query: String) async throws -> ExecutionResult {
        let source = Source(query)
        let document = try parse(source)
        let scheduler = BatchScheduler()
        let loaders = try Loaders(
            parents: loader("parents", scheduler) { key in .success(Self.parent(key)) },
            childrenOf: loader("childrenOf", scheduler) { key in
                if self.failingChildrenOf.contains(key) {
                    return .failure(
                        GraphQLError(
                            "no children for \(key)", extensions: JSONObject([("code", .string("NOT_FOUND"))])))
                }
                return .success(.array((0..<10).map { Self.record("\(key)-c\($0)") }))
            },
            itemsOf: loader("itemsOf", scheduler) { key in
                if self.failingItemsOf.contains(key) { return .failure(GraphQLError("no items for \(key)")) }
                return .success(.array((0..<12).map { Self.record("\(key)-i\($0)", label: "Item \(key)-i\($0)") }))
            },
            tags: loader("tags", scheduler) { key in
                .success(Self.record(key, label: "Tag \(key.dropFirst())"))
            },
            slow: loader("slow", scheduler) { key in
                key == "parents"
                    ? .success(.array((0..<5).map { Self.parent("s\($0)") })) : .success(.string("hello"))
            })
        let activity = CountedActivity(scheduler)
        let result = await GraphQL.execute(
            schema: Self.schema, document: document, source: source, resolvers: LoaderResolvers(style: style),
            context: loaders, activity: activity)
        lastEnters.withLock { $0 = activity.count }
        return result
    }

    private func loader(
        _ name: String, _ scheduler: BatchScheduler,
        answer: @escaping @Sendable (String) -> Result<JSONValue, any Error>
    ) throws -> DataLoader<String, JSONValue> {
        let log = self.log(name)
        let hook = self.hook
        return try DataLoader(
            name: name, maxBatchSize: maxBatchSize, scheduler: scheduler,
            batch: { keys in
                log.record(keys)
                await hook?(name, keys)
                return Dictionary(uniqueKeysWithValues: keys.map { ($0, answer($0)) })
            })
    }

    private static func parent(_ id: String) -> JSONValue {
        let number = Int(id.dropFirst()) ?? 0
        return .object(
            JSONObject([
                ("id", .string(id)), ("name", .string("Parent \(number)")),
                ("tagId", .string("t\(number % 7)")),
            ]))
    }

    private static func record(_ id: String, label: String? = nil) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if let label { entries.append(("label", .string(label))) }
        return .object(JSONObject(entries))
    }
}

/// One execution's loaders, handed to resolvers as the execution context.
struct Loaders: Sendable {
    let parents: DataLoader<String, JSONValue>
    let childrenOf: DataLoader<String, JSONValue>
    let itemsOf: DataLoader<String, JSONValue>
    let tags: DataLoader<String, JSONValue>
    let slow: DataLoader<String, JSONValue>
    /// The same loaders as the executor's batch sources.
    let batchedChildrenOf: FieldLoader
    let batchedItemsOf: FieldLoader
    let batchedTags: FieldLoader

    init(
        parents: DataLoader<String, JSONValue>, childrenOf: DataLoader<String, JSONValue>,
        itemsOf: DataLoader<String, JSONValue>, tags: DataLoader<String, JSONValue>,
        slow: DataLoader<String, JSONValue>
    ) {
        self.parents = parents
        self.childrenOf = childrenOf
        self.itemsOf = itemsOf
        self.tags = tags
        self.slow = slow
        batchedChildrenOf = FieldLoader(childrenOf)
        batchedItemsOf = FieldLoader(itemsOf)
        batchedTags = FieldLoader(tags)
    }
}

/// A field read through one of the context's batch sources by a key of its parent.
struct BatchedLoadResolver: FieldResolver {
    let loader: KeyPath<Loaders, FieldLoader> & Sendable
    let key: String

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        .load(try id(source, key: key), from: try requestLoaders(info)[keyPath: loader])
    }
}

/// Resolvers that read every list and reference through the context's loaders.
struct LoaderResolvers: ExecutionResolvers {
    let style: ResolverStyle

    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        if style == .batched {
            switch (typeName, field.name) {
            case ("Parent", "children"): return BatchedLoadResolver(loader: \.batchedChildrenOf, key: "id")
            case ("Parent", "tag"): return BatchedLoadResolver(loader: \.batchedTags, key: "tagId")
            case ("Child", "items"): return BatchedLoadResolver(loader: \.batchedItemsOf, key: "id")
            default: break
            }
        }
        switch (typeName, field.name) {
        case ("Query", "parents"):
            return AsyncResolver { _, _, info in
                let results = await (try requestLoaders(info)).parents.loadMany(BatchSource.parentIDs)
                return .json(.array(try results.map { try $0.get() }))
            }
        case ("Query", "slowParents"):
            return AsyncResolver { _, _, info in
                .json(try await requestLoaders(info).slow.load("parents"))
            }
        case ("Query", "slowGreeting"):
            return AsyncResolver { _, _, info in
                .json(try await requestLoaders(info).slow.load("greeting"))
            }
        case ("Parent", "children"):
            return AsyncResolver { source, _, info in
                .json(try await requestLoaders(info).childrenOf.load(try id(source)))
            }
        case ("Parent", "tag"):
            return AsyncResolver { source, _, info in
                .json(try await requestLoaders(info).tags.load(try id(source, key: "tagId")))
            }
        case ("Child", "items"):
            return AsyncResolver { source, _, info in
                .json(try await requestLoaders(info).itemsOf.load(try id(source)))
            }
        default:
            return nil
        }
    }
}

private func requestLoaders(_ info: ResolveInfo) throws -> Loaders {
    guard let loaders = info.context as? Loaders else {
        throw TestFailure("no loaders in the context")
    }
    return loaders
}

private func id(_ source: FieldValue, key: String = "id") throws -> String {
    guard case .json(.object(let object)) = source, case .string(let id)? = object[key] else {
        throw TestFailure("source has no \(key)")
    }
    return id
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    var arrayValue: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }
}

extension Gate {
    /// Waits until opened, or opens the gate itself after `limit`; true when opened in time.
    func wait(orGiveUpAfter limit: Duration) async -> Bool {
        let timer = Task { () -> Bool in
            do { try await Task.sleep(for: limit) } catch { return false }
            self.open()
            return true
        }
        await wait()
        timer.cancel()
        return !(await timer.value)
    }
}
