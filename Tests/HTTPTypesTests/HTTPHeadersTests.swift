import Testing

@testable import HTTPTypes

/// Header fields: order kept, names matched in any case.
@Suite struct HTTPHeadersTests {
    @Test func lookupIgnoresCase() {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "X-Request-ID": "r1"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["X-REQUEST-id"] == "r1")
        #expect(headers["Content-Length"] == nil)
        #expect(headers.count == 2)
    }

    @Test func repeatedFieldsStaySeparate() {
        var headers = HTTPHeaders()
        headers.add(name: "Vary", value: "Accept")
        headers.add(name: "vary", value: "Origin")
        #expect(headers.values(for: "VARY") == ["Accept", "Origin"])
        #expect(headers["Vary"] == "Accept")
        headers.replaceOrAdd(name: "VARY", value: "*")
        #expect(headers.map(\.name) == ["VARY"])
        headers.removeAll(named: "vary")
        #expect(headers.count == 0)
        headers.add(name: "Accept", value: "*/*")
        headers.replaceOrAdd(name: "X-Request-Id", value: "r2")
        #expect(headers.map(\.name) == ["Accept", "X-Request-Id"])
        #expect(headers["x-request-id"] == "r2")
    }
}
