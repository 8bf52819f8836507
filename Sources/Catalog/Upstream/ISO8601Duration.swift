/// Parsing of ISO 8601 durations as YouTube sends them in `contentDetails.duration`
/// (`PT5M46S`, `PT1H2M`, `P1DT2H`, `PT0S`).
enum ISO8601Duration {
    /// The duration in milliseconds, or nil when `text` is not a `P[nD][T[nH][nM][n[.f]S]]`
    /// duration (years, months and weeks have no fixed length and are rejected).
    static func milliseconds(_ text: String) -> Int? {
        var chars = Substring(text)
        guard chars.first == "P" else { return nil }
        chars = chars.dropFirst()
        var totalMs = 0.0
        var inTime = false
        var number = ""
        var sawComponent = false
        for c in chars {
            switch c {
            case "T":
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
            case "0"..."9", ".":
                number.append(c)
            case "D", "H", "M", "S":
                guard let value = Double(number) else { return nil }
                let unitMs: Double
                switch (c, inTime) {
                case ("D", false): unitMs = 86_400_000
                case ("H", true): unitMs = 3_600_000
                case ("M", true): unitMs = 60_000
                case ("S", true): unitMs = 1_000
                default: return nil
                }
                totalMs += value * unitMs
                number = ""
                sawComponent = true
            default:
                return nil
            }
        }
        guard sawComponent, number.isEmpty, totalMs < Double(Int.max) else { return nil }
        return Int(totalMs.rounded())
    }
}
