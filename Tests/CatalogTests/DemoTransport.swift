import Catalog
import DemoUpstream
import Foundation
import UpstreamEconomy

/// Carries provider GETs straight into `DemoUpstream.handle` in-process (no sockets): the
/// URL's path is percent-decoded and its query passed on raw, as an HTTP server would.
struct DemoTransport: UpstreamTransport {
    let demo: DemoUpstream

    func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let pathAndQuery = rest[pathStart...]
        let path: Substring
        let query: Substring
        if let q = pathAndQuery.firstIndex(of: "?") {
            path = pathAndQuery[..<q]
            query = pathAndQuery[pathAndQuery.index(after: q)...]
        } else {
            path = pathAndQuery
            query = ""
        }
        let request = DemoRequest(
            path: String(path).removingPercentEncoding ?? String(path), rawQuery: String(query),
            headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }))
        let response = await demo.handle(request)
        return UpstreamResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
