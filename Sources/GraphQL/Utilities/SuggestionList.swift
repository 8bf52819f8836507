// "Did you mean …" suggestions in error messages, as graphql-js builds them
// (`suggestionList`, `didYouMean`, `naturalCompare` in graphql-js's jsutils); shared by
// validation, SDL validation and input coercion.

/// Suggestion helpers for validation messages (graphql-js jsutils).
enum Suggestions {
    /// The options close enough to `input` to suggest, best first: within a lexical distance
    /// of `floor(input.count * 0.4) + 1`, sorted by distance, then in natural order.
    static func list(_ input: String, _ options: [String]) -> [String] {
        var distances: [String: Int] = [:]
        let measure = LexicalDistance(input)
        let threshold = Int(Double(input.unicodeScalars.count) * 0.4) + 1
        for option in options where distances[option] == nil {
            if let d = measure.distance(to: option, threshold: threshold) { distances[option] = d }
        }
        return distances.keys.sorted { a, b in
            let (da, db) = (distances[a] ?? 0, distances[b] ?? 0)
            return da != db ? da < db : Suggestions.naturalCompare(a, b) < 0
        }
    }

    /// graphql-js `naturalCompare`: character order, except that runs of digits compare as
    /// numbers (`"Item2" < "Item10"`). Negative, zero or positive like a C comparator.
    static func naturalCompare(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf16)
        let y = Array(b.utf16)
        var i = 0
        var j = 0
        func isDigit(_ c: UInt16) -> Bool { c >= 48 && c <= 57 }
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                // Like graphql-js, a number stops after a leading zero.
                var xNumber = 0
                repeat {
                    xNumber = xNumber &* 10 &+ Int(x[i] - 48)
                    i += 1
                } while i < x.count && isDigit(x[i]) && xNumber > 0
                var yNumber = 0
                repeat {
                    yNumber = yNumber &* 10 &+ Int(y[j] - 48)
                    j += 1
                } while j < y.count && isDigit(y[j]) && yNumber > 0
                if xNumber != yNumber { return xNumber < yNumber ? -1 : 1 }
            } else {
                if x[i] != y[j] { return x[i] < y[j] ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        return x.count - y.count
    }

    /// graphql-js `didYouMean`: `""` without suggestions, else
    /// ` Did you mean "a", "b", or "c"?` with at most five, each quoted; `subMessage` goes
    /// after "mean" (e.g. `to use an inline fragment on`).
    static func didYouMean(_ suggestions: [String], subMessage: String? = nil) -> String {
        guard !suggestions.isEmpty else { return "" }
        var message = " Did you mean "
        if let subMessage { message += subMessage + " " }
        let quoted = suggestions.prefix(5).map { "\"\($0)\"" }
        switch quoted.count {
        case 1: message += quoted[0]
        case 2: message += quoted[0] + " or " + quoted[1]
        default: message += quoted.dropLast().joined(separator: ", ") + ", or " + quoted[quoted.count - 1]
        }
        return message + "?"
    }
}

/// The optimal string alignment distance (Damerau–Levenshtein with adjacent
/// transpositions), case-insensitive: 0 for equal strings, 1 for strings equal but for
/// case; nil when over `threshold`.
private struct LexicalDistance {
    private let input: String
    private let inputLower: [Unicode.Scalar]
    private let inputLowerString: String

    init(_ input: String) {
        self.input = input
        self.inputLowerString = input.lowercased()
        self.inputLower = Array(inputLowerString.unicodeScalars)
    }

    func distance(to option: String, threshold: Int) -> Int? {
        if input == option { return 0 }
        let optionLowerString = option.lowercased()
        if inputLowerString == optionLowerString { return 1 }
        var a = Array(optionLowerString.unicodeScalars)
        var b = inputLower
        if a.count < b.count { swap(&a, &b) }
        let aLength = a.count
        let bLength = b.count
        if aLength - bLength > threshold { return nil }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: bLength + 1), count: 3)
        for j in 0...bLength { rows[0][j] = j }
        if aLength == 0 { return bLength <= threshold ? bLength : nil }
        for i in 1...aLength {
            let up = (i - 1) % 3
            let current = i % 3
            var smallest = i
            rows[current][0] = i
            if bLength > 0 {
                for j in 1...bLength {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var cell = min(rows[up][j] + 1, rows[current][j - 1] + 1, rows[up][j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        cell = min(cell, rows[(i - 2) % 3][j - 2] + 1)
                    }
                    if cell < smallest { smallest = cell }
                    rows[current][j] = cell
                }
            }
            if smallest > threshold { return nil }
        }
        let d = rows[aLength % 3][bLength]
        return d <= threshold ? d : nil
    }
}
