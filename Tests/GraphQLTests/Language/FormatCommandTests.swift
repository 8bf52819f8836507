import Foundation
import GraphQL
import TestSupport
import Testing

// `musicgraph format` run as a real process, as the conformance kit and users run it: the
// built binary sits next to the test bundle in the build directory.

private func runFormat(_ arguments: [String], stdin: String = "") throws -> ProcessRun {
    try CLI.run(["format"] + arguments, stdin: stdin)
}

@Suite("musicgraph format")
struct FormatCommandTests {
    @Test func printsAFileInCanonicalFormWithOneNewline() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("format-\(UUID().uuidString).graphql")
        try Data("query Tracks($n:Int=3){album(id:7){tracks(first:$n){title,durationMs}}}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runFormat([file.path])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                query Tracks($n: Int = 3) {
                  album(id: 7) {
                    tracks(first: $n) {
                      title
                      durationMs
                    }
                  }
                }

                """)
        #expect(run.stderr == "")
    }

    @Test func readsStdinKeepingByteOrderMarkAndCRLFAsIgnoredTokens() throws {
        let run = try runFormat([], stdin: "\u{FEFF}type Song {\r\n  title: String\r\n}\r\n")
        #expect(run.status == 0)
        #expect(run.stdout == "type Song {\n  title: String\n}\n")
    }

    @Test func syntaxErrorPrintsErrorsJSONAndExitsOne() throws {
        let run = try runFormat([], stdin: "{\n  artist(name: \"Björk\") {\n")
        #expect(run.status == 1)
        #expect(
            run.stdout
                == #"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":3,"column":1}]}]}"#
                + "\n")
    }

    @Test func tokenLimitIsASyntaxError() throws {
        let run = try runFormat(["--max-tokens", "3"], stdin: "{ a b c }")
        #expect(run.status == 1)
        #expect(
            run.stdout
                == #"{"errors":[{"message":"Syntax Error: Document contains more than 3 tokens. Parsing aborted.","locations":[{"line":1,"column":7}]}]}"#
                + "\n")
    }

    @Test func aLargeDocumentIsWrittenInPiecesExactlyAsPrintWouldWriteIt() throws {
        // ~60 KB of canonical output: format writes it a definition at a time, in chunks.
        let types = (0..<300).map { i in
            "\"\"\"\n  Type \(i), described\n    with indentation\n\"\"\"\ntype T\(i) implements Node { id: ID! \"the f\" f\(i)(a: [Int!] = [1, 2], b: String = \"x\\ty\"): [T\(i)!]! @deprecated }"
        }
        let sdl = types.joined(separator: "\n")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("format-\(UUID().uuidString).graphql")
        try Data(sdl.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runFormat([file.path])
        #expect(run.status == 0)
        let expected = print(try parse(sdl)) + "\n"
        #expect(expected.utf8.count == 49_659)
        #expect(run.stdout == expected)
        #expect(
            run.stdout.hasPrefix("\"\"\"\nType 0, described\n  with indentation\n\"\"\"\ntype T0 implements Node {\n"))
    }

    @Test func repeatPrintsOnceAndReportsMedianPhasesOnStderr() throws {
        let run = try runFormat(["--repeat", "4"], stdin: "{ a }")
        #expect(run.status == 0)
        #expect(run.stdout == "{\n  a\n}\n")
        let line = try #require(run.stderr.split(separator: "\n").last.map(String.init))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(summary.keys.sorted() == ["parse_ms", "print_ms", "repeat"])
        #expect(summary["repeat"] as? Int == 4)
        #expect(line.hasPrefix(#"{"parse_ms":"#))
    }

    @Test func usageErrorsExitTwo() throws {
        let unknown = try runFormat(["--colour", "yes"], stdin: "{ a }")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "musicgraph format: unknown option --colour; see --help\n")
        let missing = try runFormat(["/nonexistent/query.graphql"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "musicgraph format: cannot read '/nonexistent/query.graphql'\n")
        let help = try runFormat(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: musicgraph format [options] [FILE]\n"))
    }
}
