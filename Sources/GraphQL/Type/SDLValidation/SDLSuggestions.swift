// "Did you mean …?" hints for SDL validation messages, by graphql-js's rules: candidates
// within a lexical distance of 40% of the input's length (+1), closest first, ties in natural
// order, at most five named.

/// Suggestion lists for SDL validation messages (graphql-js `suggestionList` + `didYouMean`).
enum SDLSuggestions {
  /// The options close to `input`, closest first; ties sorted by natural order ("a2" < "a10").
  static func list(_ input: String, _ options: [String]) -> [String] {
    let threshold = input.unicodeScalars.count * 4 / 10 + 1
    let measure = LexicalDistance(input)
    var distances: [String: Int] = [:]
    for option in options where distances[option] == nil {
      if let d = measure.distance(to: option, threshold: threshold) { distances[option] = d }
    }
    return distances.keys.sorted { a, b in
      let (da, db) = (distances[a] ?? 0, distances[b] ?? 0)
      return da != db ? da < db : naturalLess(a, b)
    }
  }

  /// `" Did you mean "A", "B", or "C"?"`, or `""` without suggestions.
  static func didYouMean(_ suggestions: [String]) -> String {
    let quoted = suggestions.prefix(5).map { "\"\($0)\"" }
    switch quoted.count {
    case 0: return ""
    case 1: return " Did you mean \(quoted[0])?"
    case 2: return " Did you mean \(quoted[0]) or \(quoted[1])?"
    default:
      return " Did you mean " + quoted.dropLast().joined(separator: ", ") + ", or " + quoted[quoted.count - 1] + "?"
    }
  }

  /// Orders strings comparing runs of digits by numeric value (graphql-js `naturalCompare`).
  static func naturalLess(_ a: String, _ b: String) -> Bool {
    let x = Array(a.unicodeScalars.map(\.value))
    let y = Array(b.unicodeScalars.map(\.value))
    func isDigit(_ c: UInt32) -> Bool { c >= 48 && c <= 57 }
    var i = 0
    var j = 0
    while i < x.count && j < y.count {
      if isDigit(x[i]) && isDigit(y[j]) {
        var numA = 0.0
        repeat {
          numA = numA * 10 + Double(x[i] - 48)
          i += 1
        } while i < x.count && isDigit(x[i])
        var numB = 0.0
        repeat {
          numB = numB * 10 + Double(y[j] - 48)
          j += 1
        } while j < y.count && isDigit(y[j])
        if numA != numB { return numA < numB }
      } else {
        if x[i] != y[j] { return x[i] < y[j] }
        i += 1
        j += 1
      }
    }
    return x.count - i < y.count - j
  }
}

/// Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions),
/// case-insensitive but with a case-only difference counting 1, as graphql-js measures it.
private struct LexicalDistance {
  private let input: String
  private let lowered: [UInt32]

  init(_ input: String) {
    self.input = input
    self.lowered = input.lowercased().unicodeScalars.map(\.value)
  }

  /// The distance to `option`, or nil when it exceeds `threshold`.
  func distance(to option: String, threshold: Int) -> Int? {
    if input == option { return 0 }
    let other = option.lowercased().unicodeScalars.map(\.value)
    if lowered == other { return 1 }
    var a = lowered
    var b = other
    if a.count < b.count { swap(&a, &b) }
    let aLength = a.count
    let bLength = b.count
    if aLength - bLength > threshold { return nil }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: bLength + 1), count: 3)
    for j in 0...bLength { rows[0][j] = j }
    // Both are non-empty here: equal strings returned above, and a is the longer one.
    for i in 1...aLength {
      let upRow = rows[(i - 1) % 3]
      var currentRow = rows[i % 3]
      currentRow[0] = i
      var smallest = i
      for j in stride(from: 1, through: bLength, by: 1) {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var current = min(upRow[j] + 1, currentRow[j - 1] + 1, upRow[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          current = min(current, rows[(i - 2) % 3][j - 2] + 1)
        }
        smallest = min(smallest, current)
        currentRow[j] = current
      }
      rows[i % 3] = currentRow
      if smallest > threshold { return nil }
    }
    let d = rows[aLength % 3][bLength]
    return d <= threshold ? d : nil
  }
}
