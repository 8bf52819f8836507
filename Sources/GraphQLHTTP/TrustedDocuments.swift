import GraphQL

/// A list of trusted documents (an operation safelist) read from a manifest file, looked up
/// by the ids clients send (GraphQL over HTTP, Appendix A "Persisted Documents", and Apollo's
/// persisted queries).
///
/// Two formats are read:
/// - Apollo's operation manifest, `{"format":"apollo-persisted-query-manifest","version":1,
///   "operations":[{"id","name","type","body"}]}` (what `generate-persisted-query-manifest`
///   writes): each body is found by its `id` and by the SHA-256 of its text.
/// - A plain map `{"sha256:<hex>": "query …", "<custom id>": "query …"}`: a `sha256:` key
///   must be the SHA-256 of its document (checked when loading); a key without a colon is a
///   custom document identifier (the appendix's term), found as it is.
public struct TrustedDocuments: Sendable {
    /// One listed document: its text and, from a manifest, its operation name.
    public struct Document: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var body: String
    }

    /// Every listed document, in file order.
    public let documents: [Document]
    /// Bodies by id and by the SHA-256 of their text.
    private let bodies: [String: String]
    /// The SHA-256 digests of the listed bodies.
    private let bodyDigests: Set<String>

    /// Reads a manifest in either format.
    /// - Throws: `TrustedDocumentsError` naming the first problem: not JSON, an unknown
    ///   format or version, an operation without a string `id` or `body`, an id listed twice
    ///   with different bodies, a `sha256:` key that is not the digest of its document.
    public init(json: [UInt8]) throws(TrustedDocumentsError) {
        let value: JSONValue
        do {
            value = try JSONReader.parse(json)
        } catch {
            throw TrustedDocumentsError("not JSON: \(error.message) (line \(error.line), column \(error.column))")
        }
        guard case .object(let object) = value else {
            throw TrustedDocumentsError("expected a JSON object (an Apollo operation manifest or an id → document map)")
        }
        let documents: [Document]
        if object["format"] != nil || object["operations"] != nil {
            documents = try Self.readManifest(object)
        } else {
            documents = try Self.readMap(object)
        }
        var bodies: [String: String] = [:]
        var digests = Set<String>()
        for document in documents {
            if let known = bodies[document.id], known != document.body {
                throw TrustedDocumentsError("the id \"\(document.id)\" is listed twice with different documents")
            }
            bodies[document.id] = document.body
            let digest = SHA256.hexDigest(document.body)
            digests.insert(digest)
            if bodies[digest] == nil { bodies[digest] = document.body }
        }
        self.documents = documents
        self.bodies = bodies
        self.bodyDigests = digests
    }

    /// The document listed under `id`: a manifest id, a map's custom id, or the 64-hex-digit
    /// SHA-256 of a listed document's text.
    public func document(id: String) -> String? {
        bodies[id]
    }

    /// Whether a document with this SHA-256 (64 lower-case hex digits) is listed.
    public func contains(sha256: String) -> Bool {
        bodyDigests.contains(sha256)
    }

    private static func readManifest(_ object: JSONObject) throws(TrustedDocumentsError) -> [Document] {
        guard case .string("apollo-persisted-query-manifest")? = object["format"] else {
            throw TrustedDocumentsError(
                #"unknown manifest format; expected "format":"apollo-persisted-query-manifest""#)
        }
        guard case .int(1)? = object["version"] else {
            throw TrustedDocumentsError(#"unsupported manifest version; expected "version":1"#)
        }
        guard case .array(let operations)? = object["operations"] else {
            throw TrustedDocumentsError(#"the manifest has no "operations" list"#)
        }
        var documents: [Document] = []
        for (index, operation) in operations.enumerated() {
            guard case .object(let fields) = operation, case .string(let id)? = fields["id"], !id.isEmpty,
                case .string(let body)? = fields["body"]
            else {
                throw TrustedDocumentsError(
                    "operations[\(index)] needs a non-empty string \"id\" and a string \"body\"")
            }
            var name: String?
            if case .string(let text)? = fields["name"] { name = text }
            documents.append(Document(id: id, name: name, body: body))
        }
        return documents
    }

    private static func readMap(_ object: JSONObject) throws(TrustedDocumentsError) -> [Document] {
        var documents: [Document] = []
        for (key, value) in object.entries {
            guard case .string(let body) = value else {
                throw TrustedDocumentsError("the value of \"\(key)\" must be a document string")
            }
            if let colon = key.firstIndex(of: ":") {
                let prefix = key[..<colon]
                let digest = key[key.index(after: colon)...]
                guard prefix == "sha256", SHA256.isHexDigest(digest) else {
                    throw TrustedDocumentsError(
                        "\"\(key)\" is not a document id this server reads: use sha256:<64 hex digits> or an id without a colon"
                    )
                }
                guard digest.lowercased() == SHA256.hexDigest(body) else {
                    throw TrustedDocumentsError(
                        "\"\(key)\" is not the SHA-256 of its document (that is sha256:\(SHA256.hexDigest(body)))")
                }
                documents.append(Document(id: digest.lowercased(), name: nil, body: body))
            } else {
                guard !key.isEmpty else { throw TrustedDocumentsError("an empty id") }
                documents.append(Document(id: key, name: nil, body: body))
            }
        }
        return documents
    }
}

/// Why a trusted-documents manifest could not be read.
public struct TrustedDocumentsError: Error, Sendable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
