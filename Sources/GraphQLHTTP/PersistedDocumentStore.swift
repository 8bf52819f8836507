import LRU

/// Where documents registered through automatic persisted queries (Apollo's APQ protocol) are
/// kept, by the SHA-256 of their text, so that later requests may send the hash alone.
///
/// The HTTP layer checks every hash against its document before `register` and keeps its own
/// bounded in-process copy of recent documents in front of the store, so the store is asked
/// only for hashes this process has not seen lately: a store shared by several gateway
/// processes lets every one of them answer a hash that any of them registered. A store must
/// be bounded (evicting is always safe: a client whose hash is unknown sends the document
/// again) and must never fail loudly: an unreachable store answers nil and drops writes.
public protocol PersistedDocumentStore: Sendable {
    /// The document text registered under `sha256` (64 lower-case hex digits), or nil.
    func document(sha256: String) async -> String?
    /// Keeps `document` under `sha256`, which is its SHA-256 (checked by the caller).
    func register(_ document: String, sha256: String) async
}

/// The default `PersistedDocumentStore`: the most recently used documents of this process.
///
/// Bounded like Apollo Router's in-memory APQ cache: 512 documents by default, and by bytes
/// (16 MiB of document text by default), since a document may be up to the request body
/// limit long.
public final class InMemoryPersistedDocumentStore: PersistedDocumentStore {
    private let documents: LRUCache<String, String>

    /// Keeps up to `capacity` documents of up to `maxBytes` UTF-8 bytes in total.
    public init(capacity: Int = 512, maxBytes: Int = 16 << 20) {
        documents = LRUCache(capacity: capacity, maxBytes: maxBytes)
    }

    public func document(sha256: String) async -> String? {
        documents.value(for: sha256)
    }

    public func register(_ document: String, sha256: String) async {
        documents.insert(document, for: sha256, bytes: document.utf8.count)
    }

    /// Documents and bytes held now.
    public var usage: (documents: Int, bytes: Int) {
        let usage = documents.usage
        return (usage.entries, usage.bytes)
    }
}
