import Testing

@testable import HTTPClient

/// The transfer state machine, without libcurl.
@Suite struct TransferLifecycleTests {
    @Test func aTransferRunsAndCompletes() {
        var lifecycle = TransferLifecycle()
        #expect(lifecycle.arrived(stopping: false) == .add)
        #expect(lifecycle.state == .running)
        #expect(lifecycle.completed() == .removeAndFinish)
        #expect(lifecycle.state == .finished)
        #expect(lifecycle.completed() == .none)
        #expect(lifecycle.cancel() == .none)
    }

    @Test func cancellingARunningTransferRemovesIt() {
        var lifecycle = TransferLifecycle()
        _ = lifecycle.arrived(stopping: false)
        #expect(lifecycle.cancel() == .removeAndFinishCancelled)
        #expect(lifecycle.state == .finished)
        #expect(lifecycle.completed() == .none)
    }

    @Test func aCancellationThatOvertakesTheTransferStopsItOnArrival() {
        var lifecycle = TransferLifecycle()
        #expect(lifecycle.cancel() == .none)
        #expect(lifecycle.state == .queued)
        #expect(lifecycle.cancelRequested)
        #expect(lifecycle.arrived(stopping: false) == .finishCancelled)
        #expect(lifecycle.state == .finished)
    }

    @Test func aStoppingLoopCancelsArrivalsAndRunningTransfers() {
        var arriving = TransferLifecycle()
        #expect(arriving.arrived(stopping: true) == .finishCancelled)
        var running = TransferLifecycle()
        _ = running.arrived(stopping: false)
        #expect(running.stopped() == .removeAndFinishCancelled)
        #expect(running.stopped() == .none)
    }

    @Test func aFailedAddFinishesTheTransfer() {
        var lifecycle = TransferLifecycle()
        _ = lifecycle.arrived(stopping: false)
        lifecycle.addFailed()
        #expect(lifecycle.state == .finished)
        #expect(lifecycle.cancel() == .none)
        #expect(lifecycle.arrived(stopping: false) == .none)
    }
}
