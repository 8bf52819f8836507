/// How requests may name their document instead of sending it: Apollo's automatic persisted
/// queries (APQ: a SHA-256 hash, registered by the first request that sends the query with
/// it) and trusted documents (a manifest loaded at start-up, used as a safelist when
/// `requireTrusted` is set). GraphQL over HTTP, Appendix A "Persisted Documents", and
/// Apollo's APQ protocol.
public struct PersistedQueries: Sendable {
    /// Whether APQ registers and answers hashes (Apollo Router's default: on).
    public var automatic: Bool
    /// Where APQ documents are kept (shared by the gateway processes when the store is).
    public var store: any PersistedDocumentStore
    /// The trusted documents, if any: found by `documentId` and by APQ hash.
    public var trusted: TrustedDocuments?
    /// Refuse every document that is not trusted (`PERSISTED_QUERY_NOT_IN_LIST`); a query
    /// sent as text is run when it is exactly a listed document. APQ then registers nothing.
    public var requireTrusted: Bool
    /// Documents kept parsed and validated by hash in this process, in front of `store`: 512
    /// (least recently used dropped first), like Apollo Router's APQ cache.
    public var inProcessCapacity: Int

    public init(
        automatic: Bool = true, store: any PersistedDocumentStore = InMemoryPersistedDocumentStore(),
        trusted: TrustedDocuments? = nil, requireTrusted: Bool = false, inProcessCapacity: Int = 512
    ) {
        self.automatic = automatic
        self.store = store
        self.trusted = trusted
        self.requireTrusted = requireTrusted
        self.inProcessCapacity = inProcessCapacity
    }
}
