import Testing

@testable import HTTPServer

/// Freed memory is given back once per flood: after the open connections stay at a quarter of a
/// flood's peak for a second, never for ordinary load.
@Suite struct FloodMemoryReleaseTests {
    static let second: UInt64 = 1_000_000_000

    @Test func aFloodThatEndsIsReleasedOnceAfterAQuietSecond() {
        var release = FloodMemoryRelease()
        func step(_ open: Int, _ at: UInt64) -> Bool { release.shouldRelease(open: open, at: at) }
        #expect(!step(4_500, 0))
        #expect(!step(3_000, Self.second))  // still over a quarter
        #expect(!step(10, 2 * Self.second))  // quiet from now
        #expect(!step(12, 2 * Self.second + Self.second / 2))
        #expect(step(8, 3 * Self.second))
        // Once: the peak starts again from what is open.
        #expect(release.peak == 8)
        #expect(!step(8, 5 * Self.second))
    }

    @Test func busyAgainBeforeTheSecondStartsTheWaitOver() {
        var release = FloodMemoryRelease()
        func step(_ open: Int, _ at: UInt64) -> Bool { release.shouldRelease(open: open, at: at) }
        _ = step(2_000, 0)
        #expect(!step(100, Self.second))
        #expect(!step(1_500, Self.second + 1))
        #expect(!step(100, 2 * Self.second))
        #expect(!step(100, 2 * Self.second + Self.second / 2))
        #expect(step(100, 3 * Self.second))
    }

    @Test func ordinaryLoadIsNeverAFlood() {
        var release = FloodMemoryRelease()
        func step(_ open: Int, _ at: UInt64) -> Bool { release.shouldRelease(open: open, at: at) }
        for tick in 0..<100 {
            #expect(!step(tick % 2 == 0 ? 400 : 0, UInt64(tick) * Self.second))
        }
    }
}
