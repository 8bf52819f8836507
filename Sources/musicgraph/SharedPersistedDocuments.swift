import GraphQLHTTP
import SharedState

/// APQ documents kept in the gateway's shared store (`--store sqlite:…` or `redis://…`), so a
/// hash registered with one process is known to every process on that store and after a restart
/// (Apollo Router keeps them in Redis the same way).
///
/// A store that fails is a miss, never an error: a hash-only request then answers
/// `PERSISTED_QUERY_NOT_FOUND` and the client's link sends the query again, which registers it
/// once the store is back. The store bounds the documents (`MemoryStore.maxDocuments`, the
/// SQLite file's entry budget, Redis' own memory policy); GraphQLHTTP keeps the parsed ones in
/// front of it (`PersistedQueries.inProcessCapacity`).
struct SharedPersistedDocuments: PersistedDocumentStore {
    let store: any SharedStore

    func document(sha256: String) async -> String? {
        try? await store.document(sha256: sha256)
    }

    func register(_ document: String, sha256: String) async {
        try? await store.putDocument(sha256: sha256, text: document)
    }
}
