/// Search entries with a trigram index over their search keys, built once when the catalog
/// loads, so a search ranks only the entries that can match instead of scanning them all
/// (the gateway's nested queries send 150 YouTube searches at once; a scan over the ten
/// thousand videos cost ~11 ms of CPU each).
///
/// Results are exactly `SearchRanking.ranked(entries, term:)`'s: every rank needs each word
/// of the term to occur in the name or in one of the other fields (ranks 0–4 need the whole
/// term, hence each of its words, in one field), so an entry lacking one of a word's
/// three-byte sequences in all of its fields cannot match. Words shorter than three bytes
/// filter nothing; a term with no longer word is ranked by a full scan.
struct SearchIndex<Item: Sendable>: Sendable {
    let entries: [SearchEntry<Item>]
    /// Distinct trigrams (three key bytes packed big-endian into the low 24 bits), ascending.
    private let trigrams: [UInt32]
    /// Entry indices, ascending per trigram: trigram `trigrams[k]`'s entries are
    /// `postings[starts[k]..<starts[k + 1]]`.
    private let postings: [Int32]
    private let starts: [Int]

    init(_ entries: [SearchEntry<Item>]) {
        self.entries = entries
        // (trigram << 32 | entry index) pairs, sorted and deduplicated: grouped by trigram, each
        // group's entries ascending and listed once even when a trigram repeats in an entry.
        // Sized exactly: the pairs are the index's peak memory (~5 MB for the videos), and a
        // doubling growth would raise the demo's peak RSS by as much again.
        func trigramCount(_ key: SearchKey) -> Int { max(key.bytes.count - 2, 0) }
        var pairs: [UInt64] = []
        let total = entries.reduce(0) { sum, entry in
            sum + trigramCount(entry.name) + entry.others.reduce(0) { $0 + trigramCount($1) }
        }
        pairs.reserveCapacity(total)
        var scratch: [UInt32] = []
        for (index, entry) in entries.enumerated() {
            scratch.removeAll(keepingCapacity: true)
            Self.appendTrigrams(of: entry.name.bytes, to: &scratch)
            for other in entry.others { Self.appendTrigrams(of: other.bytes, to: &scratch) }
            for trigram in scratch { pairs.append(UInt64(trigram) << 32 | UInt64(index)) }
        }
        pairs.sort()
        var trigrams: [UInt32] = []
        var postings: [Int32] = []
        var starts: [Int] = []
        postings.reserveCapacity(pairs.count)
        var previous = UInt64.max
        for pair in pairs where pair != previous {
            previous = pair
            let trigram = UInt32(truncatingIfNeeded: pair >> 32)
            if trigrams.last != trigram {
                trigrams.append(trigram)
                starts.append(postings.count)
            }
            postings.append(Int32(truncatingIfNeeded: pair))
        }
        starts.append(postings.count)
        self.trigrams = trigrams
        self.postings = postings
        self.starts = starts
    }

    /// The items of the entries matching `term` and `include`, best rank first, ties in entry
    /// order: `SearchRanking.ranked(entries.filter { include($0.item) }, term: term)`.
    func ranked(term: String, where include: (Item) -> Bool = { _ in true }) -> [Item] {
        let t = SearchKey(term).trimmed
        guard !t.isEmpty else { return [] }
        let words = t.words
        var hits: [(rank: Int, index: Int)] = []
        func consider(_ index: Int) {
            let entry = entries[index]
            guard include(entry.item), let rank = SearchRanking.rank(term: t, words: words, entry: entry) else {
                return
            }
            hits.append((rank, index))
        }
        if let candidates = candidates(for: words) {
            for index in candidates { consider(Int(index)) }
        } else {
            for index in entries.indices { consider(index) }
        }
        return hits.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.index < $1.index }.map {
            entries[$0.index].item
        }
    }

    /// The ascending indices of the entries holding every trigram of every word, or nil when
    /// no word is long enough to have one (every entry is a candidate).
    private func candidates(for words: [SearchKey]) -> [Int32]? {
        var wanted: [UInt32] = []
        for word in words { Self.appendTrigrams(of: word.bytes, to: &wanted) }
        guard !wanted.isEmpty else { return nil }
        var lists: [ArraySlice<Int32>] = []
        for trigram in Set(wanted) {
            guard let k = position(of: trigram) else { return [] }  // a trigram no entry has
            lists.append(postings[starts[k]..<starts[k + 1]])
        }
        lists.sort { $0.count < $1.count }
        var result = Array(lists[0])
        for list in lists.dropFirst() {
            if result.isEmpty { break }
            result = result.filter { Self.contains(list, $0) }
        }
        return result
    }

    private func position(of trigram: UInt32) -> Int? {
        var low = 0
        var high = trigrams.count
        while low < high {
            let mid = (low + high) / 2
            if trigrams[mid] < trigram { low = mid + 1 } else { high = mid }
        }
        return low < trigrams.count && trigrams[low] == trigram ? low : nil
    }

    private static func contains(_ sorted: ArraySlice<Int32>, _ value: Int32) -> Bool {
        var low = sorted.startIndex
        var high = sorted.endIndex
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < sorted.endIndex && sorted[low] == value
    }

    private static func appendTrigrams(of bytes: [UInt8], to trigrams: inout [UInt32]) {
        guard bytes.count >= 3 else { return }
        for i in 0...(bytes.count - 3) {
            trigrams.append(UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]))
        }
    }
}
