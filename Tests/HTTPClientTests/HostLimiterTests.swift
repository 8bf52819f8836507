import TestSupport
import Testing

@testable import HTTPClient

/// The per-host line, without a socket.
@Suite struct HostLimiterTests {
    @Test func slotsArePerHost() async {
        let limiter = HostLimiter(limit: 1)
        #expect(await limiter.acquire(host: "http://a", deadline: nil) == .acquired)
        #expect(await limiter.acquire(host: "http://b", deadline: nil) == .acquired)
        #expect(limiter.waitingCount(host: "http://a") == 0)
    }

    @Test func aReleasedSlotGoesToTheLongestWaiter() async throws {
        let limiter = HostLimiter(limit: 1)
        #expect(await limiter.acquire(host: "h", deadline: nil) == .acquired)
        let first = Task { await limiter.acquire(host: "h", deadline: nil) }
        await waitForWaiters(limiter, 1)
        let second = Task { await limiter.acquire(host: "h", deadline: nil) }
        await waitForWaiters(limiter, 2)
        limiter.release(host: "h")
        #expect(await first.value == .acquired)
        #expect(limiter.waitingCount(host: "h") == 1)
        limiter.release(host: "h")
        #expect(await second.value == .acquired)
        limiter.release(host: "h")
        // All slots back: the next caller passes at once.
        #expect(await limiter.acquire(host: "h", deadline: nil) == .acquired)
    }

    @Test func aCancelledWaiterLeavesTheLine() async {
        let limiter = HostLimiter(limit: 1)
        _ = await limiter.acquire(host: "h", deadline: nil)
        let waiter = Task { await limiter.acquire(host: "h", deadline: nil) }
        await waitForWaiters(limiter, 1)
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        #expect(limiter.waitingCount(host: "h") == 0)
    }

    @Test func aWaiterGivesUpAtItsDeadline() async {
        let limiter = HostLimiter(limit: 1)
        _ = await limiter.acquire(host: "h", deadline: nil)
        let (outcome, elapsedMs) = await measureMs {
            await limiter.acquire(host: "h", deadline: ContinuousClock.now.advanced(by: .milliseconds(50)))
        }
        #expect(outcome == .deadlineExceeded)
        #expect(elapsedMs >= 50)
        #expect(limiter.waitingCount(host: "h") == 0)
    }

    @Test func aCancelledTaskDoesNotQueue() async {
        let limiter = HostLimiter(limit: 1)
        _ = await limiter.acquire(host: "h", deadline: nil)
        let waiter = Task {
            while !Task.isCancelled { await Task.yield() }
            return await limiter.acquire(host: "h", deadline: nil)
        }
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        #expect(limiter.waitingCount(host: "h") == 0)
    }

    @Test func theHostKeyIsSchemeAndAuthorityWithoutUserinfo() {
        #expect(HTTPClient.hostKey(of: "https://ITunes.Apple.com/search?term=x") == "https://itunes.apple.com")
        #expect(HTTPClient.hostKey(of: "http://user:pw@127.0.0.1:8080/a") == "http://127.0.0.1:8080")
        #expect(HTTPClient.hostKey(of: "http://h?q=1") == "http://h")
        #expect(HTTPClient.hostKey(of: "not a url") == "not a url")
        #expect(HTTPClient.hostKey(of: "HTTP://A@B@Host:1#f/x") == "http://host:1")
        #expect(HTTPClient.hostKey(of: "http://h/p@q") == "http://h")
        #expect(HTTPClient.hostKey(of: "x://") == "x://")
        #expect(HTTPClient.hostKey(of: "http://Hé.example/a") == "http://hé.example")
    }

    /// ASCII URLs are cut as bytes: the same key as the `Character` reading (kept for other
    /// URLs) for random ones made of the parts that matter.
    @Test func theHostKeyOfAnASCIIURLIsTheCharacterReadingsOne() {
        let parts = ["http", "HTTPS", "://", ":", "/", "?", "#", "@", "user", "Host", "8080", "a", "%2F", ""]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let url = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                parts.randomElement(using: &generator)!
            }.joined()
            #expect(HTTPClient.hostKey(of: url) == Self.referenceHostKey(url), "\(url)")
        }
    }

    /// `hostKey(of:)` as it reads a non-ASCII URL.
    static func referenceHostKey(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url.lowercased() }
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        return (url[..<schemeEnd.upperBound] + authority).lowercased()
    }

    private func waitForWaiters(_ limiter: HostLimiter, _ count: Int) async {
        while limiter.waitingCount(host: "h") < count {
            await Task.yield()
        }
    }
}
