import Foundation
import TestSupport
import Testing

/// The user docs speak to users: no issue numbers, test names or history ("before this
/// change") in README.md and docs/ (the repository map, docs/architecture.md, may name test
/// targets: it is the contributors' layout).
@Suite struct UserDocsWordingTests {
    static func userDocs() throws -> [(name: String, text: String)] {
        let docs = CLI.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") && $0 != "architecture.md" }.sorted()
        return try [("README.md", String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8))]
            + names.map { ("docs/" + $0, try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Every test suite and test target name of the repository.
    static func testNames() throws -> Set<String> {
        let tests = CLI.root.appendingPathComponent("Tests")
        var names: Set<String> = []
        let walker = FileManager.default.enumerator(atPath: tests.path)
        while let path = walker?.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasSuffix("Tests.swift") { names.insert(String(name.dropLast(".swift".count))) }
            if name.hasSuffix("Tests"), !path.contains("/") { names.insert(name) }
        }
        return names
    }

    static func problems(in text: String, testNames: Set<String>) -> [String] {
        var found: [String] = []
        let lowered = text.lowercased()
        for phrase in ["before this change", "after this change"] where lowered.contains(phrase) {
            found.append("\"\(phrase)\"")
        }
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "#") }
        for (index, word) in words.enumerated() {
            if word.lowercased() == "issue", index + 1 < words.count, words[index + 1].allSatisfy(\.isNumber) {
                found.append("issue \(words[index + 1])")
            }
            if word.hasPrefix("#"), word.count > 1, word.dropFirst().allSatisfy(\.isNumber) {
                found.append(String(word))
            }
            if testNames.contains(String(word)) { found.append(String(word)) }
        }
        return found
    }

    @Test func noIssueNumbersTestNamesOrHistory() throws {
        let names = try Self.testNames()
        #expect(names.count > 50)  // the check has something to look for
        for doc in try Self.userDocs() {
            let found = Self.problems(in: doc.text, testNames: names)
            #expect(found.isEmpty, "\(doc.name): \(found)")
        }
    }

    @Test func theCheckFindsWhatItLooksFor() {
        let planted = "Fixed in issue 15 (#42); DocExamplesTests covers it, unlike before this change."
        #expect(
            Self.problems(in: planted, testNames: ["DocExamplesTests"])
                == ["\"before this change\"", "issue 15", "#42", "DocExamplesTests"])
    }
}
