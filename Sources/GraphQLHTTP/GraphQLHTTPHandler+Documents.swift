import GraphQL

extension GraphQLHTTPHandler {
    /// Where a request's document comes from, once its parameters are read.
    enum DocumentSource {
        /// The text to parse and validate; registered for APQ under `register` when it validates.
        case text(String, register: String?)
        /// An APQ hash this process does not hold: ask the store (`lookUpDocument`).
        case lookUp(hash: String, notFound: GraphQLHTTPError)
        /// A document this process holds parsed and validated.
        case prepared(PreparedDocument)
        case refused(GraphQLHTTPError)
    }

    /// Finds the document a request names (GraphQL over HTTP Appendix A, Apollo's APQ), in
    /// this order:
    ///
    /// - `documentId`: `sha256:<64 lower-case hex digits>` names a trusted document, else an
    ///   APQ-registered one; an id without a colon is a trusted document's custom id; any
    ///   other form is `BAD_REQUEST`, an unknown id `PERSISTED_QUERY_NOT_FOUND` (404).
    /// - `extensions.persistedQuery.sha256Hash` with `query`: the query must hash to it
    ///   (`PERSISTED_QUERY_HASH_MISMATCH`); it is registered once it validates.
    /// - the hash alone: a trusted document, else a registered one, else
    ///   `PERSISTED_QUERY_NOT_FOUND` (HTTP 200, so Apollo's link sends the query).
    /// - `query` alone: run as it is.
    ///
    /// With `requireTrusted`, everything that is not a trusted document is
    /// `PERSISTED_QUERY_NOT_IN_LIST` (a query whose text is a listed document is trusted);
    /// with APQ off, hashes that are not trusted documents are `PERSISTED_QUERY_NOT_SUPPORTED`.
    func documentSource(for parameters: GraphQLRequestParameters) -> DocumentSource {
        let policy = configuration.persistedQueries
        if let documentId = parameters.documentId {
            return documentSource(documentId: documentId, policy: policy)
        }
        if let hash = parameters.persistedQueryHash {
            if let query = parameters.query {
                guard SHA256.hexDigest(query) == hash else { return .refused(.hashMismatch(hash)) }
                if policy.trusted?.contains(sha256: hash) == true { return .text(query, register: nil) }
                if policy.requireTrusted { return .refused(.notInList) }
                guard policy.automatic else { return .refused(.persistedQueryNotSupported) }
                return .text(query, register: hash)
            }
            return documentSource(
                hash: hash, policy: policy, notFound: .persistedQueryNotFound, withoutAPQ: .persistedQueryNotSupported)
        }
        // GraphQLRequestParameters holds a query when it has neither a document id nor a hash.
        let query = parameters.query ?? ""
        if policy.requireTrusted, policy.trusted?.contains(sha256: SHA256.hexDigest(query)) != true {
            return .refused(.notInList)
        }
        return .text(query, register: nil)
    }

    private func documentSource(documentId: String, policy: PersistedQueries) -> DocumentSource {
        guard let colon = documentId.firstIndex(of: ":") else {
            guard !documentId.isEmpty, documentId.utf8.allSatisfy(Self.isUnreservedCharacter) else {
                return .refused(.unsupportedDocumentId(documentId))
            }
            if let text = policy.trusted?.document(id: documentId) { return .text(text, register: nil) }
            return .refused(policy.requireTrusted ? .notInList : .documentNotFound(documentId))
        }
        let payload = documentId[documentId.index(after: colon)...]
        guard documentId[..<colon] == "sha256", SHA256.isHexDigest(payload), payload.lowercased() == payload else {
            return .refused(.unsupportedDocumentId(documentId))
        }
        let notFound = GraphQLHTTPError.documentNotFound(documentId)
        return documentSource(hash: String(payload), policy: policy, notFound: notFound, withoutAPQ: notFound)
    }

    /// A document named by its SHA-256: trusted, held here, or to be looked up in the store;
    /// `withoutAPQ` when it is not trusted and APQ is off.
    private func documentSource(
        hash: String, policy: PersistedQueries, notFound: GraphQLHTTPError, withoutAPQ: GraphQLHTTPError
    ) -> DocumentSource {
        if let text = policy.trusted?.document(id: hash) { return .text(text, register: nil) }
        if policy.requireTrusted { return .refused(.notInList) }
        guard policy.automatic else { return .refused(withoutAPQ) }
        // APQ registers SHA-256 digests only: another id can only have been a trusted one.
        guard SHA256.isHexDigest(Substring(hash)) else { return .refused(notFound) }
        if let prepared = persistedDocuments.value(for: hash) { return .prepared(prepared) }
        return .lookUp(hash: hash, notFound: notFound)
    }

    /// The document the store holds under `hash`, prepared; `notFound` when it holds none (or
    /// holds a text that does not hash to `hash`: a store shared with others is not trusted
    /// to be right).
    func lookUpDocument(hash: String, notFound: GraphQLHTTPError) async -> Result<PreparedDocument, PreparationRefusal>
    {
        guard let text = await configuration.persistedQueries.store.document(sha256: hash),
            SHA256.hexDigest(text) == hash
        else { return .failure(.http(notFound)) }
        return prepare(text).map { prepared in
            persistedDocuments.insert(prepared, for: hash, bytes: prepared.source.utf8.count)
            return prepared
        }.mapError { .document($0) }
    }

    /// Keeps a document that validated under its hash: here at once, in the store shortly
    /// after. The store's write is not awaited: the request needs it no more than a client
    /// needs to wait for it, and the next request for the hash finds it here meanwhile.
    func register(_ prepared: PreparedDocument, hash: String) {
        persistedDocuments.insert(prepared, for: hash, bytes: prepared.source.utf8.count)
        let store = configuration.persistedQueries.store
        let text = prepared.source.body
        Task { await store.register(text, sha256: hash) }
    }

    /// GraphQL over HTTP Appendix A's UnreservedCharacter: a letter, a digit, `-`, `.`, `_`, `~`.
    private static func isUnreservedCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
