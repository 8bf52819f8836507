import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// A very long string argument is refused before anything goes upstream (issue 16: a
    /// 900 KB `artist(name:)` was sent as a 900 KB URL).
    @Suite struct GatewayArgumentLengths {
        @Test func aNineHundredKilobyteNameIsABadUserInputErrorAndSendsNothing() async throws {
            try await GatewayHarness.run { h in
                let name = String(repeating: "a", count: 900_000)
                let response = try await h.query(
                    #"{ artist(name: "\#(name)") { name } ok: artist(name: "AC/DC") { name } }"#)
                let data = try #require(response.result.data)
                #expect(data["artist"] == .null)
                #expect(data["ok", "name"] == .string("AC/DC"))
                let error = try #require(response.result.errors.first)
                #expect(response.result.errors.count == 1)
                #expect(
                    error.message
                        == "The argument `name` of Query.artist is 900000 bytes long, over the limit of 1024 bytes.")
                #expect(error.path == [.key("artist")])
                #expect(error.extensions["code"] == .string("BAD_USER_INPUT"))
                #expect(error.extensions["maximum"] == .int(1_024))
                #expect(error.extensions["actual"] == .int(900_000))
                let log = try await h.loopback.requestLog().entries
                #expect(log.allSatisfy { $0.query.utf8.count < 2_000 })
                // At the limit it is sent as usual.
                let atLimit = try await h.query(
                    #"{ artists(name: "\#(String(repeating: "b", count: 1_024))") { name } }"#)
                #expect(atLimit.result.errors.isEmpty)
            }
        }
    }
}
