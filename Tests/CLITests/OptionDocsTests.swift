import Foundation
import TestSupport
import Testing

/// The user docs cannot drift from the CLI: every option a command's `--help` lists (its own
/// option table's help) is documented in `docs/`, and every option `docs/configuration.md`
/// names is one a command takes.
@Suite struct OptionDocsTests {
    static let commands = ["serve", "query", "explain", "validate", "schema", "exec", "format", "demo-upstream"]

    static func options(in text: String) -> Set<String> {
        var found: Set<String> = []
        let bytes = Array(text.utf8)
        var index = 0
        while index + 2 < bytes.count {
            let startsOption =
                bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: "-")
                && (index == 0 || !Self.isNameByte(bytes[index - 1]) && bytes[index - 1] != UInt8(ascii: "-"))
            guard startsOption, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index + 2]) else {
                index += 1
                continue
            }
            var end = index + 2
            while end < bytes.count, Self.isNameByte(bytes[end]) || bytes[end] == UInt8(ascii: "-") { end += 1 }
            found.insert(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end
        }
        return found
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func docs() throws -> String {
        let directory = CLI.root.appendingPathComponent("docs")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".md") }
            .map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }.joined()
    }

    /// What each command's `--help` lists.
    static func helped() throws -> [String: Set<String>] {
        var helped: [String: Set<String>] = [:]
        for command in commands {
            let run = try CLI.run([command, "--help"])
            #expect(run.status == 0, "\(command) --help: \(run.stderr)")
            helped[command] = options(in: run.stdout + run.stderr)
        }
        return helped
    }

    @Test func everyOptionAHelpListsIsDocumented() throws {
        let documented = Self.options(in: try Self.docs())
        for (command, options) in try Self.helped() {
            let missing = options.subtracting(documented).subtracting(["--help"])
            #expect(missing.isEmpty, "\(command) options not in docs/: \(missing.sorted())")
        }
    }

    @Test func everyOptionTheConfigurationPageNamesIsTaken() throws {
        let page = try String(
            contentsOf: CLI.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let global = try CLI.run(["help"])
        let taken = try Self.helped().values.reduce(into: Self.options(in: global.stdout)) { $0.formUnion($1) }
        // `--prot` is the page's example of a mistyped option.
        let unknown = Self.options(in: page).subtracting(taken).subtracting(["--prot"])
        #expect(unknown.isEmpty, "docs/configuration.md names options no command lists: \(unknown.sorted())")
        // Not vacuous: the page documents the serve options.
        #expect(Self.options(in: page).count >= 30)
    }
}
