/// Splitting id lists for batch endpoints.
enum IdBatches {
    /// `ids` without duplicates (first occurrence kept) in chunks of at most `size`; no
    /// chunks for no ids, so an empty batch never becomes a request.
    static func chunks(_ ids: [String], size: Int) -> [[String]] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        return stride(from: 0, to: unique.count, by: max(size, 1)).map {
            Array(unique[$0..<min($0 + size, unique.count)])
        }
    }

    /// Runs `fetch` once per chunk, one after the other, and merges the keyed results
    /// (first value wins for a key two chunks both return).
    static func merged<Value>(
        _ ids: [String], size: Int, _ fetch: ([String]) async throws(UpstreamError) -> [String: Value]
    ) async throws(UpstreamError) -> [String: Value] {
        var result: [String: Value] = [:]
        for chunk in chunks(ids, size: size) {
            result.merge(try await fetch(chunk), uniquingKeysWith: { first, _ in first })
        }
        return result
    }
}
