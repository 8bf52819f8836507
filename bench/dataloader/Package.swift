// swift-tools-version: 6.2
// Workload W4 of ../shared/bench as a stand-alone package, so the benchmark never touches
// the main Package.swift: Sources/GraphQL and Sources/DataLoader are symlinks to the
// repository's own modules. Built and run by bench/dataloader.py (release build).
import PackageDescription

let package = Package(
    name: "DataLoaderBench",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "GraphQL"),
        .target(name: "DataLoader"),
        .executableTarget(name: "W4Bench", dependencies: ["GraphQL", "DataLoader"]),
    ],
    swiftLanguageModes: [.v6]
)
