import Testing

@testable import HTTPServer

/// The connection deadline machine, without a socket. Instants are nanoseconds; 1 ms = 1_000_000.
@Suite struct ConnectionDeadlinesTests {
    let timeouts = ConnectionDeadlines.Timeouts(headerMs: 10, bodyMs: 30, idleMs: 5)
    let ms: UInt64 = 1_000_000

    @Test func theHeadIsDueFromTheAcceptHoweverManyBytesTrickleIn() {
        var deadlines = ConnectionDeadlines(timeouts: timeouts, acceptedAt: 0)
        #expect(deadlines.closeIfOverdue(at: 9 * ms) == nil)
        // The request line arriving restarts nothing for the first request.
        deadlines.requestLineReceived(at: 9 * ms)
        #expect(deadlines.closeIfOverdue(at: 10 * ms) == .header)
        #expect(deadlines.phase == .closed(.header))
        #expect(deadlines.closeIfOverdue(at: 100 * ms) == nil)  // reported once
    }

    @Test func theBodyIsDueFromTheHeadAndTheHandlerHasNoDeadlineHere() {
        var deadlines = ConnectionDeadlines(timeouts: timeouts, acceptedAt: 0)
        deadlines.headReceived(at: 8 * ms)
        #expect(deadlines.closeIfOverdue(at: 37 * ms) == nil)
        #expect(deadlines.closeIfOverdue(at: 38 * ms) == .body)

        var handled = ConnectionDeadlines(timeouts: timeouts, acceptedAt: 0)
        handled.headReceived(at: 1 * ms)
        handled.bodyReceived()
        #expect(handled.isHandling)
        #expect(handled.closeIfOverdue(at: 1_000 * ms) == nil)
    }

    @Test func aKeptAliveConnectionMustStartItsNextRequestWithinTheIdleTimeout() {
        var deadlines = ConnectionDeadlines(timeouts: timeouts, acceptedAt: 0)
        deadlines.headReceived(at: 1 * ms)
        deadlines.bodyReceived()
        deadlines.requestCompleted(at: 20 * ms)
        #expect(deadlines.phase == .idle(deadline: 25 * ms))
        #expect(deadlines.closeIfOverdue(at: 24 * ms) == nil)
        #expect(deadlines.closeIfOverdue(at: 25 * ms) == .idle)
    }

    @Test func theNextRequestsHeadIsDueFromItsRequestLine() {
        var deadlines = ConnectionDeadlines(timeouts: timeouts, acceptedAt: 0)
        deadlines.headReceived(at: 1 * ms)
        deadlines.bodyReceived()
        deadlines.requestCompleted(at: 2 * ms)
        deadlines.requestLineReceived(at: 6 * ms)
        #expect(deadlines.phase == .awaitingHead(deadline: 16 * ms))
        #expect(deadlines.closeIfOverdue(at: 15 * ms) == nil)
        #expect(deadlines.closeIfOverdue(at: 16 * ms) == .header)
    }

    @Test func aZeroTimeoutTurnsThatDeadlineOff() {
        var deadlines = ConnectionDeadlines(
            timeouts: ConnectionDeadlines.Timeouts(headerMs: 0, bodyMs: 0, idleMs: 0), acceptedAt: 0)
        #expect(deadlines.closeIfOverdue(at: UInt64.max) == nil)
        deadlines.headReceived(at: 1)
        #expect(deadlines.closeIfOverdue(at: UInt64.max) == nil)
        deadlines.bodyReceived()
        deadlines.requestCompleted(at: 2)
        #expect(deadlines.closeIfOverdue(at: UInt64.max) == nil)
    }

    @Test func aRequestDroppedBeforeItsBodyLeavesTheConnectionIdle() {
        // An early answer (a 413 for an announced oversized body) completes the request mid-body.
        var deadlines = ConnectionDeadlines(timeouts: timeouts, acceptedAt: 0)
        deadlines.headReceived(at: 1 * ms)
        deadlines.requestCompleted(at: 3 * ms)
        #expect(deadlines.phase == .idle(deadline: 8 * ms))
    }
}
