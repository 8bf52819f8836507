import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

/// `fetchEach`, the batch function of the search loaders: one answer per key, at most `limit`
/// fetches at a time, and a lone key fetched without a child task.
@Suite struct ConcurrentFetchTests {
    /// The identity of the task running now (`UnsafeCurrentTask` is Hashable by task).
    static func currentTask() -> Int? { withUnsafeCurrentTask { $0?.hashValue } }

    @Test func aLoneKeyIsFetchedInTheCallersTask() async throws {
        // A child task always starts on another thread: a search answered from the cache then
        // moved its whole request off the server's thread (issue 15, Q2 of bench/gateway.sh).
        let caller = Self.currentTask()
        let answers = await fetchEach(["rock"], limit: 8) { key throws(UpstreamError) in
            "\(key) fetched in the caller's task: \(Self.currentTask() == caller)"
        }
        #expect(caller != nil)
        #expect(try answers["rock"]?.get() == "rock fetched in the caller's task: true")
    }

    @Test func searchTermsAreOneKeyInEitherSpelling() {
        let decomposed = SearchKey(term: "Beyonce\u{301}", limit: 1)
        let precomposed = SearchKey(term: "Beyonc\u{E9}", limit: 1)
        #expect(Array(decomposed.term.unicodeScalars) == Array(precomposed.term.unicodeScalars))
        #expect(Set([decomposed, precomposed]).count == 1)
        #expect(SearchKey(term: "AC/DC", limit: 1).term == "AC/DC")
    }

    @Test func aLoneKeysFailureIsItsAnswer() async {
        let answers = await fetchEach(["nope"], limit: 8) { key throws(UpstreamError) -> String in
            throw UpstreamError(service: .iTunes, kind: .badResponse(reason: "no \(key)"))
        }
        #expect(answers.count == 1)
        #expect(throws: UpstreamError.self) { try answers["nope"]?.get() }
    }

    @Test func severalKeysAreEachAnsweredWithAtMostLimitInFlight() async throws {
        let gauge = InFlightGauge()
        let keys = (0..<12).map { "k\($0)" }
        let answers = await fetchEach(keys, limit: 3) { key throws(UpstreamError) -> String in
            gauge.enter()
            try? await Task.sleep(for: .milliseconds(5))
            gauge.leave()
            if key == "k7" { throw UpstreamError(service: .iTunes, kind: .badResponse(reason: "k7 failed")) }
            return key.uppercased()
        }
        #expect(answers.count == 12)
        #expect(try answers["k0"]?.get() == "K0")
        #expect(try answers["k11"]?.get() == "K11")
        #expect(throws: UpstreamError.self) { try answers["k7"]?.get() }
        #expect(gauge.highest == 3)
    }
}

/// The most fetches seen running at once.
final class InFlightGauge: Sendable {
    private let counts = Mutex((now: 0, highest: 0))
    func enter() {
        counts.withLock {
            $0.now += 1
            $0.highest = max($0.highest, $0.now)
        }
    }
    func leave() { counts.withLock { $0.now -= 1 } }
    var highest: Int { counts.withLock { $0.highest } }
}
