/// The numeric range a description documents, as the schema writes them: "How many albums
/// to return at most (1–200)", "Average vote, 0–10." The first `A–B` pair of numbers
/// (en dash, em dash or hyphen between them, spaces allowed; `A to B` too) with A ≤ B;
/// nil when there is none.
func documentedRange(_ description: String?) -> ClosedRange<Double>? {
    guard let description else { return nil }
    let scalars = Array(description.unicodeScalars)
    var i = 0
    while i < scalars.count {
        guard let (low, afterLow) = number(scalars, at: i) else {
            i += 1
            continue
        }
        var j = afterLow
        while j < scalars.count, scalars[j] == " " { j += 1 }
        var separated = false
        if j < scalars.count, ["–", "—", "-"].contains(scalars[j]) {
            separated = true
            j += 1
        } else if j + 1 < scalars.count, scalars[j] == "t", scalars[j + 1] == "o" {
            separated = true
            j += 2
        }
        if separated {
            while j < scalars.count, scalars[j] == " " { j += 1 }
            if let (high, _) = number(scalars, at: j), low <= high { return low...high }
        }
        i = afterLow
    }
    return nil
}

/// A decimal number starting at `start` (not preceded by a letter, digit or `.`, so "v2"
/// or "1.5.3" are not read), and the index after it.
private func number(_ scalars: [Unicode.Scalar], at start: Int) -> (Double, Int)? {
    guard start < scalars.count, isDigit(scalars[start]) else { return nil }
    if start > 0, isDigit(scalars[start - 1]) || scalars[start - 1] == "." || scalars[start - 1].properties.isAlphabetic
    {
        return nil
    }
    var end = start
    while end < scalars.count, isDigit(scalars[end]) { end += 1 }
    if end + 1 < scalars.count, scalars[end] == ".", isDigit(scalars[end + 1]) {
        end += 1
        while end < scalars.count, isDigit(scalars[end]) { end += 1 }
    }
    // "1-based" is an adjective, not the start of a range.
    if end < scalars.count, scalars[end].properties.isAlphabetic { return nil }
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars[start..<end])
    return Double(text).map { ($0, end) }
}

private func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
