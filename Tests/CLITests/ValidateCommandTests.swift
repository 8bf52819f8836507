import Foundation
import TestSupport
import Testing

/// `musicgraph validate` over many documents: a project of files and directories, with
/// fragments shared across files, in each output format, and every kind of bad input.
@Suite struct ValidateCommandTests {
    /// A small repository of operations against schema.graphql: a fragment file used by two
    /// operation files, one error in each of three files, an unused fragment, a duplicate
    /// operation name across files.
    static let project: [String: String] = [
        "ops/artist.graphql": """
        query ArtistPage($name: String!) {
          artist(name: $name) {
            ...ArtistCard
            nickname
          }
        }
        """,
        "ops/search.graphql": """
        query Search {
          artists(name: "AC/DC", first: 2) { ...ArtistCard }
        }
        """,
        "ops/fragments/cards.graphql": """
        fragment ArtistCard on Artist {
          name
          albums(first: 2) { ...AlbumCard }
        }

        fragment AlbumCard on Album { title rating }

        fragment Orphan on Track { title }
        """,
        "ops/legacy/artist.gql": """
        query ArtistPage { artist(name: "Queen") { name } }
        """,
    ]

    @Test func aDirectoryIsOneProjectWithFragmentsAcrossFiles() throws {
        let tree = try TemporaryTree(text: Self.project)
        defer { tree.remove() }
        let run = try CLI.run(["validate", "--schema", CLI.schemaPath, "ops"], in: tree.url)
        #expect(run.status == 1)
        // No "Unknown fragment" for ArtistCard and AlbumCard: they resolve across files; the
        // error inside AlbumCard is reported once, in its own file, though two files use it.
        #expect(
            run.lines == [
                #"ops/artist.graphql:4:5: error: Cannot query field "nickname" on type "Artist". Did you mean "name"? [FieldsOnCorrectType]"#,
                #"ops/fragments/cards.graphql:6:37: error: Cannot query field "rating" on type "Album". Did you mean "artist"? [FieldsOnCorrectType]"#,
                #"ops/fragments/cards.graphql:8:1: error: Fragment "Orphan" is never used. [NoUnusedFragments]"#,
                #"ops/legacy/artist.gql:1:7: error: There can be only one operation named "ArtistPage": ops/artist.graphql defines it too. (see also ops/artist.graphql:1:7) [UniqueOperationNames]"#,
                "4 files, 3 operations, 4 errors",
            ])
    }

    @Test func filesNamedOneByOneAreAProjectToo() throws {
        let tree = try TemporaryTree(text: Self.project)
        defer { tree.remove() }
        let run = try CLI.run(
            ["validate", "--schema", CLI.schemaPath, "ops/search.graphql", "ops/fragments/cards.graphql"], in: tree.url)
        #expect(run.status == 1)
        #expect(
            run.lines == [
                #"ops/fragments/cards.graphql:6:37: error: Cannot query field "rating" on type "Album". Did you mean "artist"? [FieldsOnCorrectType]"#,
                #"ops/fragments/cards.graphql:8:1: error: Fragment "Orphan" is never used. [NoUnusedFragments]"#,
                "2 files, 1 operations, 2 errors",
            ])
    }

    @Test func aCleanProjectExitsZeroWithTheSummary() throws {
        let tree = try TemporaryTree(text: [
            "q/a.graphql": "query A { artist(name: \"x\") { ...F } }",
            "q/b.gql": "fragment F on Artist { name genre }",
            "q/notes.txt": "not a document { at all",
        ])
        defer { tree.remove() }
        let run = try CLI.run(["validate", "--schema", CLI.schemaPath, "q"], in: tree.url)
        #expect(run.status == 0)
        #expect(run.stdout == "2 files, 1 operations, 0 errors\n")
    }

    @Test func oneFileKeepsTheJSONContract() throws {
        let tree = try TemporaryTree(text: Self.project)
        defer { tree.remove() }
        let invalid = try CLI.run(["validate", "--schema", CLI.schemaPath, "ops/artist.graphql"], in: tree.url)
        #expect(invalid.status == 1)
        #expect(
            invalid.stdout
                == #"{"errors":[{"message":"Unknown fragment \"ArtistCard\".","locations":[{"line":3,"column":8}],"extensions":{"rule":"KnownFragmentNames"}},{"message":"Cannot query field \"nickname\" on type \"Artist\". Did you mean \"name\"?","locations":[{"line":4,"column":5}],"extensions":{"rule":"FieldsOnCorrectType"}}]}"#
                + "\n")
        let valid = try CLI.run(
            ["validate", "--schema", CLI.schemaPath], stdin: "{ artist(name: \"x\") { name } }", in: tree.url)
        #expect(valid.status == 0)
        #expect(valid.stdout == "{\"errors\":[]}\n")
    }

    @Test func githubFormatAnnotatesEachErrorWithEscapedValues() throws {
        let tree = try TemporaryTree(text: [
            "ops/a,b.graphql": "{ artist(name: \"x\") { nickname } }",
            "ops/c.graphql": "query {\n",
        ])
        defer { tree.remove() }
        let run = try CLI.run(["validate", "--schema", CLI.schemaPath, "--format", "github", "ops"], in: tree.url)
        #expect(run.status == 1)
        #expect(
            run.lines == [
                #"::error file=ops/a%2Cb.graphql,line=1,col=23,title=FieldsOnCorrectType::Cannot query field "nickname" on type "Artist". Did you mean "name"?"#,
                "::error file=ops/c.graphql,line=2,col=1,title=SyntaxError::Syntax Error: Expected Name, found <EOF>.",
                "2 files, 1 operations, 2 errors",
            ])
    }

    @Test func sarifNamesRulesResultsAndRegions() throws {
        let tree = try TemporaryTree(text: Self.project)
        defer { tree.remove() }
        let run = try CLI.run(["validate", "--schema", CLI.schemaPath, "--format", "sarif", "ops"], in: tree.url)
        #expect(run.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs[0]["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(
            rules.map { $0["id"] as? String } == ["FieldsOnCorrectType", "NoUnusedFragments", "UniqueOperationNames"])
        #expect(rules[0]["helpUri"] as? String == "https://spec.graphql.org/September2025/#sec-Field-Selections")
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 4)
        let second = results[1]
        #expect(second["ruleId"] as? String == "FieldsOnCorrectType")
        #expect(second["ruleIndex"] as? Int == 0)
        #expect(second["level"] as? String == "error")
        let location = try #require(
            ((second["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let artifact = try #require(location["artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == "ops/fragments/cards.graphql")
        #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 6)
        #expect(region["startColumn"] as? Int == 37)
        let duplicate = results[3]
        let related = try #require(duplicate["relatedLocations"] as? [[String: Any]])
        let relatedArtifact = (related.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
        #expect((relatedArtifact as? [String: Any])?["uri"] as? String == "ops/artist.graphql")
    }

    @Test func jsonForManyFilesNamesTheFileOfEveryLocation() throws {
        let tree = try TemporaryTree(text: Self.project)
        defer { tree.remove() }
        let run = try CLI.run(["validate", "--schema", CLI.schemaPath, "--format", "json", "ops"], in: tree.url)
        #expect(run.status == 1)
        let output = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let errors = try #require(output["errors"] as? [[String: Any]])
        #expect(errors.count == 4)
        let locations = try #require(errors[3]["locations"] as? [[String: Any]])
        #expect(locations.map { $0["file"] as? String } == ["ops/legacy/artist.gql", "ops/artist.graphql"])
        #expect((errors[3]["extensions"] as? [String: Any])?["rule"] as? String == "UniqueOperationNames")
        let summary = try #require(output["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 4)
        #expect(summary["operations"] as? Int == 3)
        #expect(summary["errors"] as? Int == 4)
    }

    @Test func badInputsAreEachReportedAndTheRestIsStillChecked() throws {
        let tree = try TemporaryTree([
            "ops/good.graphql": Array("{ artist(name: \"x\") { name } }".utf8),
            "ops/broken.graphql": Array("{ artist(name: \"x\") { name }".utf8),
            "ops/latin1.graphql": Array("{ artist(name: \"".utf8) + [0x4D, 0xF6, 0x74] + Array("\") { name } }".utf8),
            "ops/wrong.graphql": Array("{ artist(name: 1) { name } }".utf8),
            "empty/README.md": Array("no documents here".utf8),
        ])
        defer { tree.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: tree.path("ops/gone.graphql"), withDestinationPath: tree.path("nowhere.graphql"))
        let run = try CLI.run(
            ["validate", "--schema", CLI.schemaPath, "ops", "empty", "missing.graphql"], in: tree.url)
        #expect(run.status == 2)
        #expect(
            run.lines == [
                // Problems with the inputs first, in the order of the arguments.
                "ops/gone.graphql: error: cannot read: No such file or directory [UnreadableFile]",
                "empty: error: no *.graphql or *.gql documents in this directory [NoDocuments]",
                "missing.graphql: error: cannot read: No such file or directory [UnreadableFile]",
                "ops/broken.graphql:1:29: error: Syntax Error: Expected Name, found <EOF>. [SyntaxError]",
                "ops/latin1.graphql:1:18: error: the file is not UTF-8: byte 0xF6 at offset 17 does not start a valid "
                    + "UTF-8 sequence (GraphQL documents are Unicode text, spec §2.1) [InvalidUTF8]",
                #"ops/wrong.graphql:1:16: error: String cannot represent a non string value: 1 [ValuesOfCorrectType]"#,
                "4 files, 2 operations, 6 errors",
            ])
    }

    @Test func deprecatedUsagesWarnOrFail() throws {
        let tree = try TemporaryTree(text: [
            "schema.graphql": """
            type Query { hits(top: Int @deprecated(reason: "Use `first`."), first: Int): [Hit!]! }
            type Hit { title: String! plays: Int @deprecated(reason: "Counted elsewhere now.") }
            """,
            "ops/hits.graphql": "query Hits { hits(top: 3) { title plays } }",
        ])
        defer { tree.remove() }
        // The schema file inside the directory is the schema, not a document.
        let warned = try CLI.run(["validate", "--schema", "schema.graphql", "."], in: tree.url)
        #expect(warned.status == 0)
        #expect(
            warned.lines == [
                #"./ops/hits.graphql:1:19: warning: Field "Query.hits" argument "top" is deprecated. Use `first`. [NoDeprecatedCustom]"#,
                #"./ops/hits.graphql:1:35: warning: The field Hit.plays is deprecated. Counted elsewhere now. [NoDeprecatedCustom]"#,
                "1 files, 1 operations, 0 errors, 2 warnings",
            ])
        let failed = try CLI.run(
            ["validate", "--schema", "schema.graphql", "--fail-on-deprecated", "ops"], in: tree.url)
        #expect(failed.status == 1)
        #expect(failed.lines.last == "1 files, 1 operations, 2 errors")
        #expect(failed.lines.first?.contains(": error: Field \"Query.hits\" argument \"top\" is deprecated.") == true)
        let oneFile = try CLI.run(["validate", "--schema", "schema.graphql", "ops/hits.graphql"], in: tree.url)
        #expect(oneFile.status == 0)
        #expect(oneFile.stdout.hasPrefix(#"{"errors":[],"warnings":[{"message":"Field \"Query.hits\" argument"#))
    }

    @Test func usageProblemsExitTwo() throws {
        let badFormat = try CLI.run(["validate", "--schema", CLI.schemaPath, "--format", "xml", "x.graphql"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.contains("--format expects one of json, text, github, sarif; got 'xml'"))
        let noSchema = try CLI.run(["validate", "x.graphql"])
        #expect(noSchema.status == 2)
    }
}
