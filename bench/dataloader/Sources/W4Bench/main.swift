// W4 of ../shared/bench (README there): W3's query and data, every list level resolved
// through a per-request DataLoader over in-memory tables (artists by id, albums by artist,
// tracks by album, videos by track), the way run_graphql_js.js does it; then the response
// serialized as {"data": …}. Lower bound: 4 batch calls per execution.
//
// Prints one JSON line in the peers' runner format:
//   {"impl","workload":"W4","metric":"ms_per_execution","value","runs","extra"}
// value = median wall time of `--runs` timed executions after two untimed warm-ups.
//
// Usage: W4Bench --schema S.graphql --query Q.graphql --root ROOT.json [--runs 7] [--dump FILE]
// Diagnostics: W4_DIAG=1 first prints CPU ms of W3 (the synchronous executor over the full
// root), of W4's execute alone and of its serialization; W4_MICRO=1 prints only CPU ms of
// 12,000 bare counted tasks against 12,000 tasks that each load one key (the loader's cost).
import DataLoader
import Foundation
import GraphQL
import Synchronization

extension BatchScheduler: ExecutionActivity {}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Arguments and input

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw BenchError("cannot read \(path)")
    }
    return [UInt8](data)
}

/// The in-memory tables of W4: each parent's list of children, stripped of the nested lists
/// (those come from the next level's loader).
struct Tables: Sendable {
    var artistIDs: [String] = []
    var artistsByID: [String: JSONValue] = [:]
    var albumsByArtist: [String: JSONValue] = [:]
    var tracksByAlbum: [String: JSONValue] = [:]
    var videosByTrack: [String: JSONValue] = [:]

    init(root: JSONValue) throws {
        guard case .array(let artists)? = root.member("artists") else {
            throw BenchError("root has no artists list")
        }
        for artist in artists {
            let artistID = try artist.id()
            artistIDs.append(artistID)
            artistsByID[artistID] = artist.removing("albums")
            var albums: [JSONValue] = []
            for album in artist.list("albums") {
                let albumID = try album.id()
                albums.append(album.removing("tracks"))
                var tracks: [JSONValue] = []
                for track in album.list("tracks") {
                    tracks.append(track.removing("videos"))
                    videosByTrack[try track.id()] = .array(track.list("videos"))
                }
                tracksByAlbum[albumID] = .array(tracks)
            }
            albumsByArtist[artistID] = .array(albums)
        }
    }
}

extension JSONValue {
    func member(_ key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    func list(_ key: String) -> [JSONValue] {
        guard case .array(let items)? = member(key) else { return [] }
        return items
    }

    func id() throws -> String {
        guard case .string(let id)? = member("id") else { throw BenchError("a row has no string id") }
        return id
    }

    func removing(_ key: String) -> JSONValue {
        guard case .object(let object) = self else { return self }
        return .object(JSONObject(object.entries.filter { $0.key != key }))
    }
}

// MARK: - Loaders and resolvers

/// Batch function calls per level of one execution.
final class CallCounts: Sendable {
    static let levels = ["artists", "albums", "tracks", "videos"]
    private let counts = Mutex([0, 0, 0, 0])

    func record(level: Int) {
        counts.withLock { $0[level] += 1 }
    }

    var byLevel: [(String, Int)] {
        let counts = self.counts.withLock { $0 }
        return Array(zip(Self.levels, counts))
    }
}

/// A DataLoader as the executor's batch source: the keys of every pending field of a level
/// that names it go to one `loadMany`, so the executor spends one task per batch, not per field.
final class JSONFieldLoader: FieldBatchLoader {
    let loader: DataLoader<String, JSONValue>
    init(_ loader: DataLoader<String, JSONValue>) { self.loader = loader }

    func loadFieldValues(_ keys: [String]) async -> [Result<FieldValue, any Error>] {
        await loader.loadMany(keys).map { $0.map(FieldValue.json) }
    }
}

/// One request's loaders (the execution context): a class, so that reading it from each
/// resolver's `info.context` is one retain, not one per loader.
final class Loaders: Sendable {
    let artists: DataLoader<String, JSONValue>
    let albums: JSONFieldLoader
    let tracks: JSONFieldLoader
    let videos: JSONFieldLoader

    init(tables: Tables, scheduler: BatchScheduler, counts: CallCounts) throws {
        func loader(_ level: Int, _ table: [String: JSONValue]) throws -> DataLoader<String, JSONValue> {
            let name = CallCounts.levels[level]
            return try DataLoader(
                name: name, scheduler: scheduler,
                orderedBatch: { keys in
                    counts.record(level: level)
                    return keys.map { key in
                        table[key].map { .success($0) } ?? .failure(BenchError("no \(name) row \(key)"))
                    }
                })
        }
        artists = try loader(0, tables.artistsByID)
        albums = JSONFieldLoader(try loader(1, tables.albumsByArtist))
        tracks = JSONFieldLoader(try loader(2, tables.tracksByAlbum))
        videos = JSONFieldLoader(try loader(3, tables.videosByTrack))
    }
}

struct W4Resolvers: ExecutionResolvers {
    let artistIDs: [String]

    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        let artistIDs = self.artistIDs
        switch (typeName, field.name) {
        case ("Query", "artists"):
            return AsyncResolver { _, _, info in
                let results = await (try loaders(info)).artists.loadMany(artistIDs)
                return .json(.array(try results.map { try $0.get() }))
            }
        case ("Artist", "albums"): return LoadResolver(\.albums)
        case ("Album", "tracks"): return LoadResolver(\.tracks)
        case ("Track", "videos"): return LoadResolver(\.videos)
        default:
            return nil
        }
    }
}

/// A field read through one of the request's loaders by its parent's id, batched by the
/// executor with the level's other fields of that loader (`Resolution.load`).
struct LoadResolver: FieldResolver {
    let loader: KeyPath<Loaders, JSONFieldLoader> & Sendable
    init(_ loader: KeyPath<Loaders, JSONFieldLoader> & Sendable) { self.loader = loader }

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        .load(try id(source), from: try loaders(info)[keyPath: loader])
    }
}

func loaders(_ info: ResolveInfo) throws -> Loaders {
    guard let loaders = info.context as? Loaders else {
        throw BenchError("no loaders in the context")
    }
    return loaders
}

func id(_ source: FieldValue) throws -> String {
    guard case .json(let value) = source else { throw BenchError("source is not JSON") }
    return try value.id()
}

// MARK: - Main

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func cpuMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

func countFields(_ value: JSONValue) -> Int {
    switch value {
    case .array(let items): return items.reduce(0) { $0 + countFields($1) }
    case .object(let object): return object.entries.reduce(0) { $0 + 1 + countFields($1.value) }
    default: return 0
    }
}

func runBench() async throws {
    guard let schemaPath = argument("--schema"), let queryPath = argument("--query"),
        let rootPath = argument("--root")
    else {
        throw BenchError(
            "usage: W4Bench --schema S.graphql --query Q.graphql --root ROOT.json [--runs 7] [--dump FILE]"
        )
    }
    let runs = Int(argument("--runs") ?? "7") ?? 7
    let schema = try buildSchema(source: Source(bytes: try readFile(schemaPath), name: schemaPath))
    let source = Source(bytes: try readFile(queryPath), name: queryPath)
    let document = try parse(source)
    let tables = try Tables(root: try JSONReader.parse(try readFile(rootPath)))
    let resolvers = W4Resolvers(artistIDs: tables.artistIDs)
    if ProcessInfo.processInfo.environment["W4_MICRO"] != nil {
        try await micro()
        return
    }
    if ProcessInfo.processInfo.environment["W4_DIAG"] != nil {
        try await diagnose(
            schema: schema, document: document, source: source, rootPath: rootPath, tables: tables,
            resolvers: resolvers)
    }

    /// One request: fresh scheduler and loaders, execute, serialize.
    /// Only the serialized body comes back: decoding `result.data` again would time a JSON
    /// parse of the whole response that no peer does.
    func once() async throws -> (body: [UInt8], calls: [(String, Int)]) {
        let scheduler = BatchScheduler()
        let counts = CallCounts()
        let loaders = try Loaders(tables: tables, scheduler: scheduler, counts: counts)
        let result = await execute(
            schema: schema, document: document, source: source, resolvers: resolvers, context: loaders,
            activity: scheduler)
        if let first = result.errors.first {
            throw BenchError("W4 execution errors (\(result.errors.count)): \(first)")
        }
        return (result.serialized(), counts.byLevel)
    }

    let first = try await once()
    _ = try await once()
    if let dump = argument("--dump") {
        guard FileManager.default.createFile(atPath: dump, contents: Data(first.body)) else {
            throw BenchError("cannot write \(dump)")
        }
    }
    var times: [Double] = []
    var cpu: [Double] = []
    var totals: [JSONValue] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let cpuStart = cpuMilliseconds()
        let start = clock.now
        let run = try await once()
        times.append(milliseconds(clock.now - start))
        cpu.append(cpuMilliseconds() - cpuStart)
        totals.append(.int(run.calls.reduce(0) { $0 + $1.1 }))
    }
    let medianMs = median(times)
    guard case .object(let response) = try JSONReader.parse(first.body), let data = response["data"] else {
        throw BenchError("W4 response has no data")
    }
    let fields = countFields(data)
    let line: JSONValue = .object(
        JSONObject([
            ("impl", .string("musicgraph DataLoader (release)")), ("workload", .string("W4")),
            ("metric", .string("ms_per_execution")), ("value", .double((medianMs * 10).rounded() / 10)),
            ("runs", .int(runs)),
            (
                "extra",
                .object(
                    JSONObject([
                        ("batch_calls", .object(JSONObject(first.calls.map { ($0.0, JSONValue.int($0.1)) }))),
                        ("batch_calls_total", .int(first.calls.reduce(0) { $0 + $1.1 })),
                        ("expected_batch_calls", .int(4)),
                        ("batch_calls_total_each_run", .array(totals)),
                        ("resolved_fields", .int(fields)),
                        ("fields_per_s", .int(Int(Double(fields) / (medianMs / 1000)))),
                        ("result_bytes", .int(first.body.count)),
                        ("cpu_ms_per_execution", .double((median(cpu) * 10).rounded() / 10)),
                    ]))
            ),
        ]))
    print(JSONWriter.string(line))
}

do {
    try await runBench()
} catch {
    FileHandle.standardError.write(Data("W4Bench: \(error)\n".utf8))
    exit(1)
}

/// Diagnostics (W4_DIAG=1): CPU ms of W3 (sync executor over the full root), of W4's
/// execute alone and of its serialization, medians of 5.
func diagnose(
    schema: Schema, document: Document, source: Source, rootPath: String, tables: Tables,
    resolvers: W4Resolvers
) async throws {
    let root = try JSONReader.parse(try readFile(rootPath))
    var w3: [Double] = []
    var exec: [Double] = []
    var ser: [Double] = []
    for _ in 0..<6 {
        var t = cpuMilliseconds()
        let r3 = executeSynchronously(
            schema: schema, document: document, source: source, rootValue: .json(root))
        w3.append(cpuMilliseconds() - t)
        _ = r3
        let scheduler = BatchScheduler()
        let loaders = try Loaders(tables: tables, scheduler: scheduler, counts: CallCounts())
        t = cpuMilliseconds()
        let r4 = await execute(
            schema: schema, document: document, source: source, resolvers: resolvers, context: loaders,
            activity: scheduler)
        exec.append(cpuMilliseconds() - t)
        t = cpuMilliseconds()
        let body = r4.serialized()
        if !r4.errors.isEmpty || body.count < 1_000_000 {
            throw BenchError("W4 diagnostics: unexpected result")
        }
        ser.append(cpuMilliseconds() - t)
    }
    print(
        "diag cpu ms: w3 sync execute \(median(w3)), w4 execute \(median(exec)), serialize \(median(ser))"
    )
}

func micro() async throws {
    let keys = (0..<12000).map { "key-\($0)" }
    for mode in ["tasks", "loads", "tasks", "loads"] {
        var samples: [Double] = []
        for _ in 0..<5 {
            let scheduler = BatchScheduler()
            let loader = try DataLoader<String, JSONValue>(
                name: "m", scheduler: scheduler, orderedBatch: { ks in ks.map { .success(.string($0)) } })
            let t = cpuMilliseconds()
            await scheduler.run {
                await withTaskGroup(of: Int.self) { group in
                    for key in keys {
                        scheduler.enter()
                        group.addTask {
                            defer { scheduler.leave() }
                            if mode == "loads" { _ = try? await loader.load(key) }
                            return 1
                        }
                    }
                    scheduler.leave()
                    var n = 0
                    for await x in group { n += x }
                    scheduler.enter()
                }
            }
            samples.append(cpuMilliseconds() - t)
        }
        print("micro \(mode): \(median(samples)) ms cpu for 12000")
    }
}
