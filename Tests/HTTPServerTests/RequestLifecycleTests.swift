import Testing

@testable import HTTPServer

/// The request state machine, without a socket.
@Suite struct RequestLifecycleTests {
    @Test func aHandlerThatSuspendsIsAnsweredAfterTheResume() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        #expect(lifecycle.called(contentLength: nil) == .proceed)
        #expect(lifecycle.state == .receiving(bodyBytes: 0, overLimit: false))
        #expect(lifecycle.called(contentLength: nil) == .handle)
        #expect(lifecycle.state == .handling(suspended: false))
        #expect(suspendUnlessAnswered(&lifecycle) == .suspend)
        #expect(lifecycle.state == .handling(suspended: true))
        let response = HTTPResponse(status: 200, body: [1])
        #expect(answer(&lifecycle, response) == .resume)
        #expect(lifecycle.state == .ready(response))
        #expect(lifecycle.called(contentLength: nil) == .respond(response))
        #expect(lifecycle.state == .answered)
    }

    @Test func aHandlerThatAnswersBeforeSuspendingIsAnsweredInTheSameCall() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        _ = lifecycle.called(contentLength: nil)
        #expect(lifecycle.called(contentLength: nil) == .handle)
        let response = HTTPResponse(status: 200, body: [2])
        #expect(answer(&lifecycle, response) == .none)  // nothing to resume: never suspended
        #expect(suspendUnlessAnswered(&lifecycle) == .respond(response))
        #expect(lifecycle.state == .answered)
        #expect(answer(&lifecycle, HTTPResponse(status: 503)) == .ignored)
        #expect(lifecycle.called(contentLength: nil) == .proceed)
    }

    @Test func onlyTheFirstAnswerCounts() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        _ = lifecycle.called(contentLength: nil)
        _ = lifecycle.called(contentLength: nil)
        _ = suspendUnlessAnswered(&lifecycle)
        #expect(answer(&lifecycle, HTTPResponse(status: 503)) == .resume)
        #expect(answer(&lifecycle, HTTPResponse(status: 200)) == .ignored)
        #expect(lifecycle.called(contentLength: nil) == .respond(HTTPResponse(status: 503)))
        #expect(answer(&lifecycle, HTTPResponse(status: 200)) == .ignored)
    }

    @Test func noAnswerBeforeTheHandlerRuns() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        #expect(answer(&lifecycle, HTTPResponse(status: 200)) == .ignored)
        _ = lifecycle.called(contentLength: nil)
        #expect(answer(&lifecycle, HTTPResponse(status: 200)) == .ignored)
        #expect(lifecycle.state == .receiving(bodyBytes: 0, overLimit: false))
    }

    @Test func bodyChunksAreCountedAgainstTheLimit() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        _ = lifecycle.called(contentLength: nil)
        #expect(lifecycle.bodyReceived(count: 6) == .append)
        #expect(lifecycle.bodyReceived(count: 4) == .append)
        #expect(lifecycle.state == .receiving(bodyBytes: 10, overLimit: false))
        #expect(lifecycle.bodyReceived(count: 1) == .discard)
        #expect(lifecycle.bodyReceived(count: 1) == .discard)
        #expect(lifecycle.called(contentLength: nil) == .respond(.payloadTooLarge(limitBytes: 10)))
        #expect(lifecycle.state == .answered)
    }

    @Test func anAnnouncedOversizedBodyIsRefusedAtOnce() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        #expect(lifecycle.called(contentLength: 11) == .respond(.payloadTooLarge(limitBytes: 10)))
        #expect(lifecycle.state == .answered)
        #expect(lifecycle.bodyReceived(count: 3) == .discard)
        #expect(lifecycle.called(contentLength: nil) == .proceed)
    }

    @Test func anOptedInHandlerIsStartedForOversizedBodies() {
        var announced = RequestLifecycle(maxBodyBytes: 10, handlerAnswersOversizedBodies: true)
        #expect(announced.called(contentLength: 11) == .handleOversized)
        #expect(announced.state == .handling(suspended: false))
        #expect(announced.bodyReceived(count: 3) == .discard)

        var streamed = RequestLifecycle(maxBodyBytes: 10, handlerAnswersOversizedBodies: true)
        #expect(streamed.called(contentLength: nil) == .proceed)
        #expect(streamed.bodyReceived(count: 11) == .discard)
        #expect(streamed.called(contentLength: nil) == .handleOversized)
        #expect(streamed.answer(HTTPResponse(status: 413)) == .none)
        #expect(streamed.suspendUnlessAnswered() == .respond(HTTPResponse(status: 413)))
    }

    @Test func callsWhileHandlingChangeNothing() {
        var lifecycle = RequestLifecycle(maxBodyBytes: 10)
        _ = lifecycle.called(contentLength: 2)
        _ = lifecycle.called(contentLength: 2)
        #expect(lifecycle.called(contentLength: nil) == .proceed)
        #expect(lifecycle.bodyReceived(count: 1) == .discard)
        #expect(lifecycle.state == .handling(suspended: false))
    }

    /// `lifecycle.answer(_:)` outside `#expect`, which cannot take a mutating call.
    private func answer(_ lifecycle: inout RequestLifecycle, _ response: HTTPResponse) -> RequestLifecycle.AnswerAction
    {
        lifecycle.answer(response)
    }

    private func suspendUnlessAnswered(_ lifecycle: inout RequestLifecycle) -> RequestLifecycle.AfterStart {
        lifecycle.suspendUnlessAnswered()
    }
}
