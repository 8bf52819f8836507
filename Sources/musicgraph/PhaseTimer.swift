import Foundation

/// Times the phases of a document command for `--repeat N`: the work runs N times, and
/// one JSON line of median milliseconds per phase goes to stderr, e.g.
/// `{"parse_ms":0.412,"print_ms":0.18,"repeat":100}`, so the engine can be timed without
/// process start-up.
struct PhaseTimer {
    private var samples: [String: [Double]] = [:]
    private var order: [String] = []

    /// Runs `body` and records its wall time in milliseconds under `phase` (e.g. `"parse"`).
    mutating func measure<T, E: Error>(_ phase: String, _ body: () throws(E) -> T) throws(E) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        if samples[phase] == nil { order.append(phase) }
        samples[phase, default: []].append(ms)
        return result
    }

    /// `{"<phase>_ms":median,…,"repeat":n}` with phases in first-measured order.
    func summary(repeat n: Int) -> String {
        var parts: [String] = []
        for phase in order {
            let sorted = samples[phase]!.sorted()
            let mid = sorted.count / 2
            let median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
            parts.append("\"\(phase)_ms\":\(String(format: "%.4f", median))")
        }
        parts.append("\"repeat\":\(n)")
        return "{" + parts.joined(separator: ",") + "}"
    }
}
