import Foundation
import HTTPClient
import TestSupport
import Testing

@testable import Catalog

extension LoopbackTests.GatewayProcesses {
    /// POSTs `body` with `accept`: status, Content-Type and the JSON body.
    static func post(_ url: String, body: [String: Any], accept: String) async throws
        -> (status: Int, contentType: String, json: [String: Any])
    {
        let response = try await client.post(
            url, headers: ["Content-Type": "application/json", "Accept": accept],
            body: [UInt8](try JSONSerialization.data(withJSONObject: body)))
        let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (Int(response.status.code), response.headers["Content-Type"] ?? "", json ?? [:])
    }

    /// Issue 18: a deferred query refused before execution (its variables do not coerce, or
    /// its estimated cost is over `--max-query-cost`) gets the ordinary response of the same
    /// query without a multipart Accept: 400 `application/graphql-response+json` with the
    /// error's own code, no multipart body.
    @Test func requestErrorsOfADeferredQueryAreOrdinaryResponses() async throws {
        let gateway = try CLIChild(
            ["serve", "--demo", "--port", "0", "--max-query-cost", "50"],
            environment: ["MUSICGRAPH_MAX_QUERY_COST": ""])
        defer { gateway.stop() }
        let multipart = "multipart/mixed; incrementalSpec=v0.2"
        let ordinary = "application/graphql-response+json"
        let json = "application/graphql-response+json; charset=utf-8"
        let coercion: [String: Any] = [
            "query":
                #"query ($n: Int!) { artist(name: "AC/DC") { name albums(first: $n) { title ... @defer { tracks { title } } } } }"#,
            "variables": ["n": "two"],
        ]
        // Two albums' tracks cost little; every track's videos (a search each, 100) far more than 50.
        let costly: [String: Any] = [
            "query":
                #"{ artist(name: "AC/DC") { name albums { title tracks { title ... @defer { videos(first: 1) { title } } } } } }"#
        ]
        // Under the limit, the same gateway streams the parts: the multipart path is the one tested.
        let cheap = try await Self.client.post(
            gateway.url, headers: ["Content-Type": "application/json", "Accept": multipart],
            body: [UInt8](
                try JSONSerialization.data(withJSONObject: [
                    "query": #"{ artist(name: "AC/DC") { name ... @defer { albums(first: 1) { title } } } }"#
                ])))
        #expect(cheap.status == 200)
        #expect(cheap.headers["Content-Type"] == #"multipart/mixed; boundary="-"; incrementalSpec=v0.2"#)
        for (body, code) in [(coercion, "BAD_USER_INPUT"), (costly, "QUERY_COST_EXCEEDED")] {
            let deferred = try await Self.post(gateway.url, body: body, accept: multipart)
            let plain = try await Self.post(gateway.url, body: body, accept: ordinary)
            // Variables that do not coerce: 422; the application's cost refusal keeps its 400.
            #expect(deferred.status == (code == "BAD_USER_INPUT" ? 422 : 400), "\(code)")
            #expect(deferred.contentType == json, "\(code)")
            #expect(deferred.json["data"] == nil)
            let errors = deferred.json["errors"] as? [[String: Any]] ?? []
            #expect(errors.count == 1)
            #expect((errors.first?["extensions"] as? [String: Any])?["code"] as? String == code)
            // The same answer as without multipart.
            #expect(plain.status == deferred.status && plain.contentType == deferred.contentType)
            #expect(
                (plain.json["errors"] as? [[String: Any]])?.first?["message"] as? String
                    == errors.first?["message"] as? String)
            #expect(
                ((plain.json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"]
                    as? String == code)
        }
    }
}
