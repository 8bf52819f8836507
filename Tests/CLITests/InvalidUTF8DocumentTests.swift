import Foundation
import TestSupport
import Testing

/// A CLI document that is not UTF-8 is a syntax error naming the byte's offset, for every
/// command that reads one; never "Unexpected character U+FFFD". Issue 16.
@Suite struct InvalidUTF8DocumentTests {
    /// `{ __typename<0xFF> }` in a file of its own.
    static func file() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("utf8-\(UUID().uuidString).graphql")
        try Data(Array("{ __typename".utf8) + [0xFF] + Array(" }\n".utf8)).write(to: url)
        return url.path
    }

    static let error =
        #"{"errors":[{"message":"Syntax Error: Invalid UTF-8: byte 0xFF at offset 12 is not part of a UTF-8 sequence.","#
        + #""locations":[{"line":1,"column":13}]"#

    @Test func formatValidateExecAndQueryNameTheByte() throws {
        let path = try Self.file()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("utf8-\(UUID().uuidString).json")
        try Data("{}".utf8).write(to: data)
        let runs = [
            try CLI.run(["format", path]),
            try CLI.run(["validate", "--schema", CLI.schemaPath, path]),
            try CLI.run(["exec", "--schema", CLI.schemaPath, "--data", data.path, path]),
            try CLI.run(["query", "--demo", path]),
        ]
        for run in runs {
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stdout.hasPrefix(Self.error), "\(run.stdout)")
            #expect(!run.stdout.contains("U+FFFD"))
        }
    }
}
