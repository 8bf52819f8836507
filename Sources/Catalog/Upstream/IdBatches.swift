import UpstreamEconomy

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
        let chunks = chunks(ids, size: size)
        // One chunk (the usual batch) is its own answer: merging it would copy every value.
        if chunks.count == 1 { return try await fetch(chunks[0]) }
        var result: [String: Value] = [:]
        for chunk in chunks {
            result.merge(try await fetch(chunk), uniquingKeysWith: { first, _ in first })
        }
        return result
    }

    /// `values` by `id`, the first of any values that share an id kept (the upstream's order
    /// wins): the shape a lookup's decoder keeps, so a cached response is not re-keyed on every read.
    static func keyed<Value>(_ values: [Value], by id: (Value) -> String) -> [String: Value] {
        var result: [String: Value] = [:]
        result.reserveCapacity(values.count)
        for value in values where result[id(value)] == nil { result[id(value)] = value }
        return result
    }
}
