/// Milliseconds elapsed while running `body`.
public func measureMs<T>(_ body: () async throws -> T) async rethrows -> (T, Int) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    let (seconds, attoseconds) = (clock.now - start).components
    return (value, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
}

/// The error `body` threw, or nil if it returned (write its type: `{ () async throws(E) in … }`).
public func failure<Failure: Error, Value>(_ body: () async throws(Failure) -> Value) async -> Failure? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// Polls `condition` every 2 ms until it holds or `seconds` pass (then the test's own checks fail).
public func waitUntil(seconds: Int = 2, _ condition: () -> Bool) async {
    let end = ContinuousClock.now.advanced(by: .seconds(seconds))
    while !condition(), ContinuousClock.now < end {
        try? await Task.sleep(for: .milliseconds(2))
    }
}

/// The upper bound of wall-clock checks, in milliseconds: far below the 7.5–30 s the checked
/// behaviour would take without the limit under test, and far above its normal 0.1–0.3 s, so a
/// test process whose cooperative threads are all blocked for a few seconds (another suite's
/// slow synchronous set-up) does not fail it.
public let stallTolerantBoundMs = 5_000
