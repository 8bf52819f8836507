import FuzzSchema
import FuzzSupport
import GraphQL
import GraphQLHTTP
import HTTPServer
import HTTPTypes

/// GraphQL over HTTP up to execution: method, path and query, headers and body as a client
/// sends them, through every check of `GraphQLHTTPHandler.respond(to:)` (media types, body
/// shape, batches, APQ, request parameters, parse, validation). Execution answers `null` data
/// at once, so the run never waits. Every answer has a status and, unless it is 204 or a
/// HEAD, a body.
///
/// Input: `METHOD\nTARGET\n` then header lines `Name: value\n` up to an empty line, then the
/// body (the layout of an HTTP/1.1 request head; a missing part is empty). TARGET is a path
/// with an optional `?query`; a path that is not `/graphql` reaches the other routes.
private func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let request = FuzzRequest(fuzzBytes(data, size)).httpRequest
    let handler = GraphQLHTTPHandler(
        schema: gatewaySchema, configuration: GraphQLHTTPHandler.Configuration(logSink: { _ in }, documentCacheSize: 4),
        executeNow: { _, _, _ in .executed(ExecutionResult(data: .null)) },
        execute: { _, _, _ in .executed(ExecutionResult(data: .null)) })
    guard case .now(let response) = handler.respond(to: request) else { return 0 }
    fuzzCheck((100...599).contains(response.status.code), "status \(response.status)")
    if response.status.code != 204, request.method != "HEAD", request.method != "OPTIONS" {
        fuzzCheck(!response.body.isEmpty, "an empty \(response.status) body")
    }
    return 0
}

/// The fuzz input split into an HTTP request's parts.
private struct FuzzRequest {
    var method = ""
    var target = ""
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    init(_ bytes: [UInt8]) {
        var lines = 0
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x0A else {
                index += 1
                continue
            }
            let line = String(decoding: bytes[start..<index], as: UTF8.self)
            start = index + 1
            index += 1
            lines += 1
            switch lines {
            case 1: method = line
            case 2: target = line
            default:
                guard !line.isEmpty else {
                    body = Array(bytes[start...])
                    return
                }
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                let value = line[colon...].dropFirst().drop { $0 == " " }
                headers.append((String(line[..<colon]), String(value)))
            }
        }
        if start < bytes.count {
            let rest = String(decoding: bytes[start...], as: UTF8.self)
            if lines == 0 { method = rest } else if lines == 1 { target = rest }
        }
    }

    var httpRequest: HTTPRequest {
        let question = target.firstIndex(of: "?")
        let path = question.map { String(target[..<$0]) } ?? target
        let query = question.map { String(target[$0...].dropFirst()) } ?? ""
        return HTTPRequest(
            method: HTTPMethod(rawValue: method), path: path, rawQuery: query, headers: HTTPHeaders(headers), body: body
        )
    }
}

// Built before the first input: LeakSanitizer counts what an input allocates and keeps.
_ = gatewaySchema
runFuzzer { fuzzHTTP($0, $1) }
