import GraphQL
import HTTPServer
import HTTPTypes

/// The parameters of a GraphQL-over-HTTP request (GraphQL over HTTP draft, "Request
/// Parameters"): the document text, the operation to run, its variables, and the
/// implementor-reserved `extensions` map; or, instead of the text, the id of a persisted
/// document (Appendix A, `documentId`) or an APQ hash (`extensions.persistedQuery`).
struct GraphQLRequestParameters: Sendable, Equatable {
    /// The document text; nil when the request names a persisted document instead.
    var query: String?
    var operationName: String?
    var variables: JSONObject
    var extensions: JSONObject
    /// A persisted document's id (`sha256:<hex>` or a custom id), as sent.
    var documentId: String?
    /// Apollo's `extensions.persistedQuery.sha256Hash`, lower-cased when it is 64 hex digits.
    var persistedQueryHash: String?

    /// Why an HTTP request is not a well-formed GraphQL-over-HTTP request (always status 400).
    /// The messages go to the client as `errors[0].message`.
    enum Malformed: Error, Sendable, Equatable {
        case bodyNotJSON(JSONParseError)
        case bodyNotObject
        case missingQuery
        case queryNotString
        case operationNameNotString
        case variablesNotObject
        case variablesNotJSON(JSONParseError)
        case extensionsNotObject
        case extensionsNotJSON(JSONParseError)
        case documentIdNotString
        case queryAndDocumentId
        case persistedQueryMalformed
        /// A query parameter whose percent-decoded name or value is not UTF-8: its name (as
        /// far as it decodes) and the invalid byte with its offset in the decoded bytes.
        case parameterNotUTF8(name: String, detail: String)

        var message: String {
            switch self {
            case .bodyNotJSON(let error):
                "The request body is not valid JSON: \(error.message) (line \(error.line), column \(error.column))."
            case .bodyNotObject:
                "The request body must be a JSON object with a \"query\" string, or an array of such objects (a batch)."
            case .missingQuery: "The request has no \"query\" parameter holding a GraphQL document."
            case .queryNotString: "The \"query\" parameter must be a string."
            case .operationNameNotString: "The \"operationName\" parameter must be a string."
            case .variablesNotObject: "The \"variables\" parameter must be a JSON object."
            case .variablesNotJSON(let error): "The \"variables\" parameter is not valid JSON: \(error.message)."
            case .extensionsNotObject: "The \"extensions\" parameter must be a JSON object."
            case .extensionsNotJSON(let error): "The \"extensions\" parameter is not valid JSON: \(error.message)."
            case .documentIdNotString: "The \"documentId\" parameter must be a string."
            case .queryAndDocumentId: "Send either a \"query\" or a \"documentId\", not both."
            case .parameterNotUTF8(let name, let detail):
                "The \"\(name.prefix(100))\" query parameter is not valid UTF-8 once percent-decoded: \(detail) (send "
                    + "text as UTF-8, each byte percent-encoded)."
            case .persistedQueryMalformed:
                "\"extensions.persistedQuery\" must be an object with \"version\": 1 and a \"sha256Hash\" string (64 hex "
                    + "digits, or a trusted document's id)."
            }
        }
    }

    /// Reads a POST body in the JSON encoding ("JSON Encoding"): an object with `query`
    /// (string, required unless a persisted document is named), `operationName` (string),
    /// `variables` and `extensions` (objects), `documentId` (string). A `null` entry counts
    /// as absent, as the draft says; other keys are ignored (reserved).
    static func fromJSONBody(_ body: [UInt8]) throws(Malformed) -> GraphQLRequestParameters {
        let value: JSONValue
        do {
            value = try JSONReader.parse(body)
        } catch {
            throw .bodyNotJSON(error)
        }
        guard case .object(let object) = value else { throw .bodyNotObject }
        return try fromJSONObject(object)
    }

    /// Reads one request object of the JSON encoding (a POST body, or an element of a batch).
    static func fromJSONObject(_ object: JSONObject) throws(Malformed) -> GraphQLRequestParameters {
        let query: String?
        switch object["query"] {
        case .string(let text)?: query = text
        case nil, .null?: query = nil
        default: throw .queryNotString
        }
        let operationName: String?
        switch object["operationName"] {
        case .string(let name)?: operationName = name
        case nil, .null?: operationName = nil
        default: throw .operationNameNotString
        }
        let documentId: String?
        switch object["documentId"] {
        case .string(let id)?: documentId = id
        case nil, .null?: documentId = nil
        default: throw .documentIdNotString
        }
        return try GraphQLRequestParameters(
            query: query, operationName: operationName,
            variables: try optionalObject(object["variables"], else: .variablesNotObject),
            extensions: try optionalObject(object["extensions"], else: .extensionsNotObject), documentId: documentId)
    }

    /// Refuses a raw query whose percent-decoded names or values are not UTF-8 (`%FF` would
    /// otherwise reach the document and the upstreams as a U+FFFD the client never sent).
    /// - Throws: `Malformed.parameterNotUTF8` for the first such parameter.
    static func checkUTF8(rawQuery: String) throws(Malformed) {
        // Nearly every query has no escapes beyond ASCII: skip the decoding pass for those.
        guard rawQuery.utf8.contains(UInt8(ascii: "%")) else { return }
        for (name, value) in HTTPQueryItem.decodedPairs(rawQuery: rawQuery[...]) {
            let label = String(decoding: name, as: UTF8.self)
            if let offset = UTF8Validation.firstInvalidOffset(in: name) {
                throw .parameterNotUTF8(
                    name: label, detail: "its name has " + UTF8Validation.describe(name, at: offset))
            }
            if let offset = UTF8Validation.firstInvalidOffset(in: value) {
                throw .parameterNotUTF8(name: label, detail: UTF8Validation.describe(value, at: offset))
            }
        }
    }

    /// Reads the URL query of a GET request ("GET"): `query` (or `documentId`),
    /// `operationName` (the empty string means absent), and `variables` / `extensions` as
    /// JSON texts of objects. The first occurrence of a repeated parameter wins.
    static func fromQueryItems(_ items: [HTTPQueryItem]) throws(Malformed) -> GraphQLRequestParameters {
        func first(_ name: String) -> String? { items.first { $0.name == name }?.value }
        return try GraphQLRequestParameters(
            query: first("query"), operationName: first("operationName").flatMap { $0.isEmpty ? nil : $0 },
            variables: try jsonObject(
                first("variables"), notJSON: { .variablesNotJSON($0) }, else: .variablesNotObject),
            extensions: try jsonObject(
                first("extensions"), notJSON: { .extensionsNotJSON($0) }, else: .extensionsNotObject),
            documentId: first("documentId"))
    }

    /// Checks how the document is given: exactly one of `query` and `documentId`, or an APQ
    /// hash (with or without `query`).
    private init(
        query: String?, operationName: String?, variables: JSONObject, extensions: JSONObject, documentId: String?
    ) throws(Malformed) {
        var persistedQueryHash: String?
        switch extensions["persistedQuery"] {
        case nil, .null?:
            break
        case .object(let persistedQuery)?:
            guard case .int(1)? = persistedQuery["version"], case .string(let hash)? = persistedQuery["sha256Hash"],
                !hash.isEmpty, hash.utf8.count <= 200
            else { throw .persistedQueryMalformed }
            // A hash of another shape can still be a trusted document's id (an Apollo manifest's).
            persistedQueryHash = SHA256.isHexDigest(Substring(hash)) ? hash.lowercased() : hash
        default:
            throw .persistedQueryMalformed
        }
        if query != nil, documentId != nil { throw .queryAndDocumentId }
        if query == nil, documentId == nil, persistedQueryHash == nil { throw .missingQuery }
        self.init(
            query: query, operationName: operationName, variables: variables, extensions: extensions,
            documentId: documentId, persistedQueryHash: persistedQueryHash)
    }

    init(
        query: String?, operationName: String? = nil, variables: JSONObject = JSONObject(),
        extensions: JSONObject = JSONObject(), documentId: String? = nil, persistedQueryHash: String? = nil
    ) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
        self.documentId = documentId
        self.persistedQueryHash = persistedQueryHash
    }

    private static func optionalObject(_ value: JSONValue?, else failure: Malformed) throws(Malformed) -> JSONObject {
        switch value {
        case .object(let object)?: return object
        case nil, .null?: return JSONObject()
        default: throw failure
        }
    }

    private static func jsonObject(
        _ text: String?, notJSON: (JSONParseError) -> Malformed, else failure: Malformed
    ) throws(Malformed) -> JSONObject {
        guard let text, !text.isEmpty else { return JSONObject() }
        let value: JSONValue
        do {
            value = try JSONReader.parse(text)
        } catch {
            throw notJSON(error)
        }
        return try optionalObject(value, else: failure)
    }
}
