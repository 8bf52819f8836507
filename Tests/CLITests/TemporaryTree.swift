import Foundation

/// A fresh temporary directory holding `files` (relative path → contents), removed by `remove()`.
struct TemporaryTree {
    let url: URL

    init(_ files: [String: [UInt8]]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("musicgraph-cli-\(UUID().uuidString)")
        for (path, bytes) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    init(text files: [String: String]) throws {
        try self.init(files.mapValues { Array($0.utf8) })
    }

    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
