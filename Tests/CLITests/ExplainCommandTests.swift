import Foundation
import HTTPClient
import TestSupport
import Testing

/// `musicgraph explain`: the plan of a query's upstream calls, nothing sent.
@Suite struct ExplainCommandTests {
    static let nested =
        #"{ artist(name: "Iron Maiden") { name albums { title tracks { title videos(first: 1) { title } } } } }"#

    static func plan(_ run: ProcessRun) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return try #require(object?["plan"] as? [String: Any])
    }

    @Test func aColdPlanSendsNothingAndAStoreThatHoldsTheAnswersPlansNoSend() async throws {
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let tree = try TemporaryTree(text: ["nested.graphql": Self.nested])
        defer { tree.remove() }
        let store = "sqlite:" + tree.path("store.sqlite")
        let options = [
            "--upstream", demo.url, "--store", store, "--daily-quota", "youtube=100000", tree.path("nested.graphql"),
        ]

        let cold = try CLI.run(["explain"] + options, environment: FleetTests.keys)
        #expect(cold.status == 0, "\(cold.stderr)")
        let coldPlan = try Self.plan(cold)
        #expect(coldPlan["send"] as? Int == 1)
        #expect(coldPlan["complete"] as? Bool == false)
        #expect(try await FleetTests.log(demo).isEmpty)

        let ran = try CLI.run(["query"] + options, environment: FleetTests.keys)
        #expect(ran.status == 0, "\(ran.stderr)")
        let sent = try await FleetTests.log(demo).count
        #expect(sent == 153)

        // A new process on the same store: its plan follows the stored answers and sends nothing.
        let warm = try CLI.run(["explain"] + options, environment: FleetTests.keys)
        #expect(warm.status == 0)
        let warmPlan = try Self.plan(warm)
        #expect(warmPlan["send"] as? Int == 0)
        #expect(warmPlan["units"] as? Int == 0)
        #expect(warmPlan["complete"] as? Bool == true)
        #expect((warmPlan["cache"] as? Int ?? 0) >= 153)
        #expect(try await FleetTests.log(demo).count == sent)
    }

    @Test func aRefusedDocumentExits1WithItsErrors() throws {
        let run = try CLI.run(["explain", "--demo", "-"], stdin: "{ artist(name: ) }")
        #expect(run.status == 1)
        #expect(run.stdout.contains("GRAPHQL_PARSE_FAILED") || run.stdout.contains("Syntax Error"))
    }
}
