import Foundation
import UpstreamEconomy

/// The key of a search loader: the words, how many results, and one provider-specific
/// option (a YouTube duration filter, a Rakuten search field) as text. The words are kept in
/// Unicode NFC, as they go upstream: two spellings of one name (`Beyoncé` precomposed, or with
/// a combining accent) are one key, so one cache entry, one request in flight and one charge.
struct SearchKey: Hashable, Sendable {
    let term: String
    var limit: Int
    var option: String = ""

    init(term: String, limit: Int, option: String = "") {
        self.term = term.nfc
        self.limit = limit
        self.option = option
    }
}

extension String {
    /// The text in Unicode NFC, the form every user string goes upstream in (search terms,
    /// connector template values): two spellings of one name are one request. ASCII is NFC
    /// already, so most strings skip Foundation's normalization.
    var nfc: String { utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping }
}

/// Runs `fetch` once per key, at most `limit` at a time, and answers per key: the batch
/// function of loaders over endpoints that take one key per request (searches). One key's
/// failure fails that key only.
///
/// A single key is fetched in the calling task: a child task always starts on another
/// thread, so a search answered from the cache would cost its request a thread hop.
func fetchEach<Key: Hashable & Sendable, Value: Sendable>(
    _ keys: [Key], limit: Int, _ fetch: @escaping @Sendable (Key) async throws(UpstreamError) -> Value
) async -> [Key: Result<Value, any Error>] {
    if keys.count == 1 {
        do throws(UpstreamError) {
            return [keys[0]: .success(try await fetch(keys[0]))]
        } catch {
            return [keys[0]: .failure(error)]
        }
    }
    return await withTaskGroup(of: (Key, Result<Value, any Error>).self) { group in
        var results: [Key: Result<Value, any Error>] = [:]
        results.reserveCapacity(keys.count)
        var pending = keys[...]
        func startNext() {
            guard let key = pending.popFirst() else { return }
            group.addTask {
                do throws(UpstreamError) {
                    return (key, .success(try await fetch(key)))
                } catch {
                    return (key, .failure(error))
                }
            }
        }
        for _ in 0..<max(1, limit) { startNext() }
        while let (key, result) = await group.next() {
            results[key] = result
            startNext()
        }
        return results
    }
}
