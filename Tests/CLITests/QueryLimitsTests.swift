import Foundation
import TestSupport
import Testing

/// `musicgraph query` applies serve's operation limits, with the same flags and defaults.
@Suite struct QueryLimitsTests {
    /// A document asking for `__typename` under `count` aliases (nothing goes upstream).
    static func aliased(_ count: Int) -> String {
        QueryIncrementalTests.write("{ " + (0..<count).map { "a\($0): __typename" }.joined(separator: " ") + " }")
    }

    @Test func serveDefaultsRefuseWhatServeRefuses() throws {
        let refused = try CLI.run(["query", "--demo", Self.aliased(16)])
        #expect(refused.status == 1)
        #expect(
            refused.stdout.hasPrefix(
                #"{"errors":[{"message":"The anonymous operation has 16 aliases, over the limit of 15.","#
                    + #""locations":[{"line":1,"column":1}],"extensions":{"code":"MAX_ALIASES_LIMIT","limit":"MaxAliases","#
                    + #""maximum":15,"actual":16}}],"extensions":{"cost":{"estimated":0,"actual":0}"#))
        let accepted = try CLI.run(["query", "--demo", Self.aliased(15)])
        #expect(accepted.status == 0)
        #expect(accepted.stdout.hasPrefix(#"{"data":{"a0":"Query","#))
    }

    @Test func eachFlagChangesItsLimitAndZeroTurnsItOff() throws {
        let off = try CLI.run(["query", "--demo", "--max-aliases", "0", "--max-root-fields", "0", Self.aliased(40)])
        #expect(off.status == 0)
        #expect(off.stdout.contains(#""a39":"Query""#))
        let strict = try CLI.run(["query", "--demo", "--max-root-fields", "2", Self.aliased(3)])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(#""code":"MAX_ROOT_FIELDS_LIMIT""#))
        let deep = try CLI.run(
            [
                "query", "--demo", "--max-depth", "2",
                QueryIncrementalTests.write(#"{ artist(name: "AC/DC") { albums(first: 1) { title } } }"#),
            ])
        #expect(deep.status == 1)
        #expect(deep.stdout.contains(#""code":"MAX_DEPTH_LIMIT""#))
        let closed = try CLI.run(
            [
                "query", "--demo", "--no-introspection",
                QueryIncrementalTests.write("{ __schema { queryType { name } } }"),
            ])
        #expect(closed.status == 1)
        #expect(closed.stdout.contains(#""code":"INTROSPECTION_DISABLED""#))
    }

    @Test func aBadLimitValueIsAUsageError() throws {
        let run = try CLI.run(["query", "--demo", "--max-aliases", "many", Self.aliased(1)])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--max-aliases"))
    }
}
