import GraphQL

/// The incremental delivery formats served as `multipart/mixed` (the GraphQL-over-HTTP
/// incremental delivery RFC, graphql-over-http `rfcs/IncrementalDelivery.md`), chosen by the
/// client's `Accept` header.
public enum IncrementalDeliveryFormat: Sendable, Equatable {
    /// `multipart/mixed; incrementalSpec=v0.2` (or no spec parameter): the payloads of the
    /// incremental delivery RFC as graphql-js 17 produces them (`pending`, `incremental` entries
    /// with `id`, `completed`); what Apollo Client 4.1's `GraphQL17Alpha9Handler` reads.
    case incrementalSpecV02
    /// `multipart/mixed; deferSpec=20220824`: the older format of Apollo Router and Apollo
    /// Client's `Defer20220824Handler` (`incremental: [{data | items, path, label?}]`).
    case deferSpec20220824

    /// The response's `Content-Type`, naming the boundary the parts use.
    public var contentType: String {
        switch self {
        case .incrementalSpecV02: #"multipart/mixed; boundary="-"; incrementalSpec=v0.2"#
        case .deferSpec20220824: #"multipart/mixed; boundary="-"; deferSpec=20220824"#
        }
    }

    /// One payload as the JSON body of a part.
    func json(_ part: GraphQLHTTPIncrementalPart) -> [UInt8] {
        switch self {
        case .incrementalSpecV02: part.payload.serialized(extensions: part.extensions)
        case .deferSpec20220824: part.payload.serializedDefer20220824(extensions: part.extensions)
        }
    }

    /// The last payload of a stream cut short (the request deadline, the response size limit): `error` completes every
    /// notice still pending (or, in the older format, nulls its data).
    func deadlinePayload(pending: [PendingNotice], error: GraphQLError) -> [UInt8] {
        var payload = JSONObject([("hasNext", .bool(false))])
        switch self {
        case .incrementalSpecV02:
            if !pending.isEmpty {
                payload["completed"] = .array(
                    pending.map { .object(JSONObject([("id", .string($0.id)), ("errors", .array([error.json]))])) })
            }
        case .deferSpec20220824:
            if !pending.isEmpty {
                payload["incremental"] = .array(
                    pending.map { notice in
                        var entry = JSONObject([("data", .null), ("path", Self.pathJSON(notice.path))])
                        if let label = notice.label { entry["label"] = .string(label) }
                        entry["errors"] = .array([error.json])
                        return .object(entry)
                    })
            }
        }
        return JSONWriter.serialize(.object(payload))
    }

    private static func pathJSON(_ path: [PathComponent]) -> JSONValue {
        .array(
            path.map { component in
                switch component {
                case .key(let key): .string(key)
                case .index(let index): .int(index)
                }
            })
    }
}

/// The framing of a `multipart/mixed` incremental response with the boundary `-`, exactly as the
/// RFC's example and graphql-helix, GraphQL Yoga and meros have it: each part is preceded by
/// CRLF `---` CRLF and its `Content-Type` header and a blank line; the body ends with CRLF
/// `-----` CRLF (the close delimiter `--` boundary `--`).
enum MultipartMixed {
    static let partHead = Array("\r\n---\r\nContent-Type: application/json; charset=utf-8\r\n\r\n".utf8)
    static let closeDelimiter = Array("\r\n-----\r\n".utf8)

    /// One part: its delimiter, header and `json`.
    static func part(_ json: [UInt8]) -> [UInt8] { partHead + json }
}

/// One payload of an incremental execution as the application hands it to the HTTP layer.
public struct GraphQLHTTPIncrementalPart: Sendable {
    public var payload: IncrementalPayload
    /// The payload's top-level `extensions` (the application's, usually on the last payload).
    public var extensions: JSONObject
    /// What the request cost so far (all of it on the last payload), for `/metrics` and the log.
    public var report: RequestReport

    public init(payload: IncrementalPayload, extensions: JSONObject = JSONObject(), report: RequestReport = .init()) {
        self.payload = payload
        self.extensions = extensions
        self.report = report
    }

    /// The last payload: `.complete`, or one with `hasNext == false`.
    var isLast: Bool {
        switch payload {
        case .complete: true
        case .initial: false
        case .subsequent(let subsequent): !subsequent.hasNext
        }
    }
}
