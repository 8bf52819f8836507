import Foundation

/// The documents a `validate` run reads: FILE arguments as given, DIR arguments searched
/// recursively for `*.graphql` and `*.gql` (as graphql-config's `documents` globs do), in
/// a fixed order (arguments in order, each directory's files sorted by path bytes) so that
/// output is the same on every machine.
///
/// Hidden entries (names starting with `.`) and `node_modules` are not searched; the schema
/// file itself is skipped when a directory holds it; a file named twice is read once.
struct DocumentFiles {
    /// A readable document: its name as reported (the argument, or the directory argument
    /// joined with the path below it) and its bytes as they are.
    struct File {
        var name: String
        var bytes: [UInt8]
    }

    static let extensions: Set<String> = ["graphql", "gql"]

    var files: [File] = []
    /// Paths that could not be read, directories without documents.
    var problems: [Diagnostic] = []

    /// Reads every document `arguments` name; `-` is stdin (named `stdin`).
    /// - Parameter schemaPath: the schema file, never read as a document.
    init(arguments: [String], schemaPath: String) {
        let fileManager = FileManager.default
        let schemaIdentity = Self.identity(schemaPath)
        var seen: Set<String> = []
        for argument in arguments {
            if argument == "-" {
                guard seen.insert("-").inserted else { continue }
                files.append(File(name: "stdin", bytes: [UInt8](FileHandle.standardInput.readDataToEndOfFile())))
                continue
            }
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                problems.append(Self.unreadable(argument, reason: String(cString: strerror(ENOENT))))
                continue
            }
            if isDirectory.boolValue {
                let found = Self.documents(under: argument)
                if found.isEmpty {
                    problems.append(
                        Diagnostic(
                            severity: .error, rule: Diagnostic.Rule.noDocuments,
                            message: "no *.graphql or *.gql documents in this directory", file: argument,
                            positions: []))
                }
                for path in found where Self.identity(path) != schemaIdentity {
                    read(path, seen: &seen)
                }
            } else {
                read(argument, seen: &seen)
            }
        }
    }

    private mutating func read(_ path: String, seen: inout Set<String>) {
        guard seen.insert(Self.identity(path)).inserted else { return }
        switch Self.readFile(path) {
        case .success(let bytes): files.append(File(name: path, bytes: bytes))
        case .failure(let reason): problems.append(Self.unreadable(path, reason: reason.message))
        }
    }

    /// The document files below `directory`, sorted by path.
    static func documents(under directory: String) -> [String] {
        let root = URL(fileURLWithPath: directory)
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let rootPath = root.standardizedFileURL.path
        var found: [String] = []
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true {
                if url.lastPathComponent == "node_modules" { walker.skipDescendants() }
                continue
            }
            // A document name that is no regular file (a dangling link, a socket) is kept, so
            // that reading it reports why rather than skipping it in silence.
            guard extensions.contains(url.pathExtension.lowercased()) else { continue }
            var relative = url.standardizedFileURL.path
            guard relative.hasPrefix(rootPath) else { continue }
            relative.removeFirst(rootPath.count)
            while relative.hasPrefix("/") { relative.removeFirst() }
            found.append(prefix + relative)
        }
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Reads a regular file whole; the failure's message says why not (`strerror`).
    static func readFile(_ path: String) -> Result<[UInt8], CLIError> {
        guard let file = fopen(path, "rb") else { return .failure(CLIError(String(cString: strerror(errno)))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { return .failure(CLIError(String(cString: strerror(errno)))) }
                return .success(bytes)
            }
        }
    }

    /// The same string for every name of one file (symbolic links and `./` resolved).
    private static func identity(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    private static func unreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(
            severity: .error, rule: Diagnostic.Rule.unreadableFile, message: "cannot read: \(reason)", file: path,
            positions: [])
    }
}
