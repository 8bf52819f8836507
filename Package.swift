// swift-tools-version: 6.2
// MusicGraph: a GraphQL query gateway. Module layout and dependency direction: ../shared/DESIGN.md.
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let products: [Product] = [
    .executable(name: "musicgraph", targets: ["musicgraph"]),
    .library(name: "GraphQL", targets: ["GraphQL"]),
    // For the libFuzzer targets in fuzz/ (a package of their own).
    .library(name: "Catalog", targets: ["Catalog"]),
    .library(name: "GraphQLHTTP", targets: ["GraphQLHTTP"]),
    .library(name: "HTTPServer", targets: ["HTTPServer"]),
    .library(name: "HTTPTypes", targets: ["HTTPTypes"]),
]

let targets: [Target] = [
    // The engine: no I/O at all.
    .target(name: "GraphQL", swiftSettings: strict),
    .target(name: "DataLoader", swiftSettings: strict),
    // The one least-recently-used dictionary every byte-bounded cache keeps its entries in.
    .target(name: "LRU", swiftSettings: strict),
    // ThreadSanitizer annotations for Synchronization.Mutex's hand-offs through the kernel (see
    // its .c file), linked into the executable and the tests; an empty C file without TSan.
    .target(name: "TSanMutexHandOff"),
    // Deterministic answers from the schema alone (`--mock`): no I/O, like the engine.
    .target(name: "GraphQLMocks", dependencies: ["GraphQL"], swiftSettings: strict),
    .systemLibrary(
        name: "CCurl", pkgConfig: "libcurl",
        providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(
        name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
        providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(
        name: "CCrypto", pkgConfig: "libcrypto",
        providers: [.apt(["libssl-dev"])]),
    // No pkgConfig: hiredis.pc's -D_FILE_OFFSET_BITS=64 is a flag SwiftPM refuses (a build
    // warning); the header is <hiredis/hiredis.h> in the default include path anyway.
    .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
    // Header fields, methods, status codes and query items: one definition under client and server.
    .target(name: "HTTPTypes", swiftSettings: strict),
    .target(name: "HTTPClient", dependencies: ["CCurl", "HTTPTypes"], swiftSettings: strict),
    .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "HTTPTypes"], swiftSettings: strict),
    // OpenTelemetry tracing: W3C Trace Context, spans, the batching OTLP/HTTP JSON exporter.
    .target(name: "Tracing", dependencies: ["HTTPClient", "HTTPTypes"], swiftSettings: strict),
    .target(
        name: "DemoUpstream", dependencies: ["HTTPServer", "HTTPTypes"], resources: [.copy("Resources")],
        swiftSettings: strict),
    .systemLibrary(
        name: "CSQLite", pkgConfig: "sqlite3",
        providers: [.apt(["libsqlite3-dev"])]),
    // What outlives a request: one protocol, three stores.
    .target(name: "SharedState", dependencies: ["LRU"], swiftSettings: strict),
    // The fleet's store: Redis through hiredis, apart so that SharedState needs no C library.
    .target(name: "RedisStore", dependencies: ["CHiredis", "SharedState"], swiftSettings: strict),
    // The embedded default store: its own module, so users of the protocol need no SQLite.
    .target(name: "SharedStateSQLite", dependencies: ["CSQLite", "SharedState"], swiftSettings: strict),
    // The upstream economy, knowing no API: upstreams by name with their declared traits,
    // transports, recording and replay, the cache tiers, in-flight deduplication (local and
    // store claims), the quota ledger and its days, the request budget, the counters.
    .target(
        name: "UpstreamEconomy",
        dependencies: ["GraphQL", "HTTPClient", "HTTPTypes", "LRU", "SharedState", "Tracing"],
        swiftSettings: strict),
    .target(
        name: "Catalog",
        dependencies: [
            "GraphQL", "GraphQLMocks", "DataLoader", "HTTPClient", "HTTPTypes", "SharedState", "UpstreamEconomy",
        ],
        swiftSettings: strict),
    .target(
        name: "GraphQLHTTP", dependencies: ["CCrypto", "GraphQL", "HTTPServer", "HTTPTypes", "LRU", "Tracing"],
        swiftSettings: strict),
    .executableTarget(
        name: "musicgraph",
        dependencies: [
            "GraphQL", "GraphQLHTTP", "GraphQLMocks", "Catalog", "DemoUpstream", "HTTPClient", "HTTPServer",
            "HTTPTypes", "RedisStore", "SharedState", "SharedStateSQLite", "TSanMutexHandOff", "Tracing",
            "UpstreamEconomy",
        ],
        swiftSettings: strict),
    .testTarget(name: "GraphQLTests", dependencies: ["GraphQL", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "GraphQLMocksTests", dependencies: ["GraphQLMocks", "GraphQL"], swiftSettings: strict),
    // The musicgraph executable run as a process (and talked to over HTTP).
    .testTarget(
        name: "CLITests", dependencies: ["HTTPClient", "HTTPTypes", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "DataLoaderTests", dependencies: ["DataLoader", "GraphQL"], swiftSettings: strict),
    .testTarget(name: "LRUTests", dependencies: ["LRU"], swiftSettings: strict),
    .testTarget(name: "HTTPTypesTests", dependencies: ["HTTPTypes"], swiftSettings: strict),
    .testTarget(name: "TracingTests", dependencies: ["Tracing"], swiftSettings: strict),
    .testTarget(
        name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPServer", "HTTPTypes", "TestSupport"],
        swiftSettings: strict),
    .testTarget(
        name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPClient", "HTTPTypes", "TestSupport"],
        swiftSettings: strict),
    .testTarget(
        name: "DemoUpstreamTests", dependencies: ["DemoUpstream", "HTTPClient"], swiftSettings: strict),
    // What the tests share: a clock they move by hand, the `SharedStore` contract every store runs,
    // `musicgraph` and other programs run as processes, raw loopback sockets, a real redis-server on a
    // free loopback port, and the timing helpers of the HTTP tests.
    .target(name: "TestSupport", dependencies: ["SharedState"], path: "Tests/TestSupport", swiftSettings: strict),
    .testTarget(name: "SharedStateTests", dependencies: ["SharedState", "TestSupport"], swiftSettings: strict),
    // Against a redis-server of each test's own on a free loopback port.
    .testTarget(
        name: "RedisStoreTests", dependencies: ["RedisStore", "SharedState", "TestSupport"], swiftSettings: strict),
    .testTarget(
        name: "SharedStateSQLiteTests", dependencies: ["SharedStateSQLite", "SharedState", "TestSupport"],
        swiftSettings: strict),
    .testTarget(
        name: "CatalogTests",
        dependencies: [
            "Catalog", "DataLoader", "DemoUpstream", "GraphQL", "GraphQLMocks", "HTTPClient", "HTTPServer",
            "HTTPTypes", "SharedState", "TestSupport", "UpstreamEconomy",
        ],
        resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(name: "SanitizerTests", dependencies: ["TSanMutexHandOff"], swiftSettings: strict),
    .testTarget(
        name: "GraphQLHTTPTests",
        dependencies: ["GraphQLHTTP", "GraphQL", "HTTPClient", "HTTPServer", "HTTPTypes", "TestSupport"],
        swiftSettings: strict),

]

/// The names of the targets `target` depends on within this package.
func dependencyNames(of target: Target) -> [String] {
    target.dependencies.compactMap { dependency in
        switch dependency {
        case .targetItem(let name, _), .byNameItem(let name, _): name
        default: nil
        }
    }
}

/// `roots` and every target they depend on, directly or not.
func closure(of roots: [String], in targets: [Target]) -> Set<String> {
    let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
    var kept: Set<String> = []
    var next = roots
    while let name = next.popLast() {
        guard kept.insert(name).inserted, let target = byName[name] else { continue }
        next += dependencyNames(of: target)
    }
    return kept
}

// MUSICGRAPH_ONLY_TARGETS (target names, space-separated) narrows the package to those targets
// and what they depend on, with no library products: a sanitizer run (scripts/sanitize.sh) builds
// only the modules its tests reach, not the whole package under a slow sanitizer build.
let only = Context.environment["MUSICGRAPH_ONLY_TARGETS"]?.split(separator: " ").map(String.init) ?? []
let kept = closure(of: only, in: targets)

let package = Package(
    name: "MusicGraph",
    platforms: [.macOS(.v15)],
    products: only.isEmpty ? products : [],
    targets: only.isEmpty ? targets : targets.filter { kept.contains($0.name) },
    swiftLanguageModes: [.v6]
)
