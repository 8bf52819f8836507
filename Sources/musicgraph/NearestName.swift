/// The candidate `word` most likely stands for: the closest within two edits (insertions,
/// deletions, substitutions or swaps of neighbours), the first in `candidates` on a tie; else
/// the only candidate `word` begins (`--incr` for `--incremental`). Nil when none is that near,
/// or `word` is too short for two edits to mean anything.
func nearest(to word: String, among candidates: [String]) -> String? {
    let typed = Array(word)
    // What is typed past the leading dashes: two edits to a two-letter word could make it anything.
    let letters = typed.drop { $0 == "-" }.count
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate != word {
        let distance = editDistance(typed, Array(candidate))
        if distance <= min(2, letters - 1), distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    if let best { return best.candidate }
    let extensions = candidates.filter { $0.hasPrefix(word) && $0 != word }
    return letters >= 2 && extensions.count == 1 ? extensions[0] : nil
}

/// The optimal string alignment distance (Damerau–Levenshtein without edits of an edited
/// substring): the fewest insertions, deletions, substitutions and swaps of two neighbours
/// that turn `a` into `b`.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // Three rows of the usual table: the one before the last is what a swap looks back to.
    var before = [Int](repeating: 0, count: b.count + 1)
    var last = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        row[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], before[j - 2] + 1) }
        }
        (before, last, row) = (last, row, before)
    }
    return last[b.count]
}
