// swift-tools-version: 6.2
// libFuzzer targets for MusicGraph's parsers and decoders, built by `make fuzz` with
// `swift build -c release -Xswiftc -sanitize=fuzzer,address`: each target's main.swift hands
// its test function to libFuzzer (`runFuzzer`). A package of its own, so the main build and
// `swift test` never compile them without the fuzzer runtime.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let musicGraph = root.lastPathComponent.lowercased()

func fuzzTarget(_ name: String, _ products: [String], schema: Bool = false) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + (schema ? ["FuzzSchema"] : [])
            + products.map { .product(name: $0, package: musicGraph) })
}

let package = Package(
    name: "MusicGraphFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: root.path)],
    targets: [
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        .target(
            name: "FuzzSchema",
            dependencies: [
                .product(name: "GraphQL", package: musicGraph), .product(name: "Catalog", package: musicGraph),
            ]),
        fuzzTarget("FuzzParse", ["GraphQL"]),
        fuzzTarget("FuzzValidate", ["GraphQL"], schema: true),
        fuzzTarget("FuzzJSON", ["GraphQL"]),
        fuzzTarget("FuzzHTTP", ["GraphQL", "GraphQLHTTP", "HTTPServer", "HTTPTypes"], schema: true),
        fuzzTarget("FuzzITunes", ["Catalog"]),
        fuzzTarget("FuzzAppleMusic", ["Catalog"]),
        fuzzTarget("FuzzRakuten", ["Catalog"]),
        fuzzTarget("FuzzTMDB", ["Catalog"]),
        fuzzTarget("FuzzYouTube", ["Catalog"]),
    ],
    swiftLanguageModes: [.v6]
)
