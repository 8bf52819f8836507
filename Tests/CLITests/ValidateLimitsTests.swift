import Foundation
import TestSupport
import Testing

/// `musicgraph validate` checks serve's operation limits statically, under the same flags.
@Suite struct ValidateLimitsTests {
    static let files: [String: String] = [
        "q/aliases.graphql": "query Twins {\n  a: artist(name: \"x\") { name }\n  b: artist(name: \"y\") { name }\n}",
        "q/deep.graphql": "query Deep { artist(name: \"x\") { albums(first: 1) { tracks { title } } } }",
    ]

    @Test func theLimitsAreOffUnlessAskedFor() throws {
        let tree = try TemporaryTree(text: Self.files)
        defer { tree.remove() }
        let run = try CLI.run(["validate", "--schema", CLI.schemaPath, "q"], in: tree.url)
        #expect(run.status == 0)
        #expect(run.stdout == "2 files, 2 operations, 0 errors\n")
        let serve = try CLI.run(["validate", "--schema", CLI.schemaPath, "--serve-limits", "q"], in: tree.url)
        #expect(serve.status == 0)
    }

    @Test func eachFlagChecksItsLimitAndTheReportNamesIt() throws {
        let tree = try TemporaryTree(text: Self.files)
        defer { tree.remove() }
        let run = try CLI.run(
            ["validate", "--schema", CLI.schemaPath, "--max-aliases", "1", "--max-depth", "3", "q"], in: tree.url)
        #expect(run.status == 1)
        #expect(
            run.lines == [
                #"q/aliases.graphql:1:1: error: Operation "Twins" has 2 aliases, over the limit of 1. [MaxAliases]"#,
                #"q/deep.graphql:1:62: error: Operation "Deep" nests fields 4 levels deep, over the limit of 3. [MaxDepth]"#,
                "2 files, 2 operations, 2 errors",
            ])
        let github = try CLI.run(
            ["validate", "--schema", CLI.schemaPath, "--format", "github", "--max-root-fields", "1", "q"],
            in: tree.url)
        #expect(github.status == 1)
        #expect(github.stdout.contains("title=MaxRootFields::"))
    }

    @Test func oneFileReportsTheLimitAsItsRuleAndCode() throws {
        let tree = try TemporaryTree(text: Self.files)
        defer { tree.remove() }
        let run = try CLI.run(
            ["validate", "--schema", CLI.schemaPath, "--no-introspection", "--max-aliases", "1", "q/aliases.graphql"],
            in: tree.url)
        #expect(run.status == 1)
        #expect(
            run.stdout
                == #"{"errors":[{"message":"Operation \"Twins\" has 2 aliases, over the limit of 1.","locations":[{"line":1,"column":1}],"extensions":{"code":"MAX_ALIASES_LIMIT","limit":"MaxAliases","maximum":1,"actual":2,"rule":"MaxAliases"}}]}"#
                + "\n")
    }
}
