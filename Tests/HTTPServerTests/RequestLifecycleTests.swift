import Testing

@testable import HTTPServer

/// The request state machine, without a socket.
@Suite struct RequestLifecycleTests {
  @Test func aRequestWithoutBodyIsHandledThenAnswered() {
    var lifecycle = RequestLifecycle(maxBodyBytes: 10)
    #expect(lifecycle.called(contentLength: nil) == .proceed)
    #expect(lifecycle.state == .receiving(bodyBytes: 0, overLimit: false))
    #expect(lifecycle.called(contentLength: nil) == .suspendAndHandle)
    #expect(lifecycle.state == .handling)
    let response = HTTPResponse(status: 200, body: [1])
    #expect(answer(&lifecycle, response))
    #expect(lifecycle.state == .ready(response))
    #expect(lifecycle.called(contentLength: nil) == .respond(response))
    #expect(lifecycle.state == .answered)
  }

  @Test func onlyTheFirstAnswerCounts() {
    var lifecycle = RequestLifecycle(maxBodyBytes: 10)
    _ = lifecycle.called(contentLength: nil)
    _ = lifecycle.called(contentLength: nil)
    #expect(answer(&lifecycle, HTTPResponse(status: 503)))
    #expect(!answer(&lifecycle, HTTPResponse(status: 200)))
    #expect(lifecycle.called(contentLength: nil) == .respond(HTTPResponse(status: 503)))
    #expect(!answer(&lifecycle, HTTPResponse(status: 200)))
  }

  @Test func noAnswerBeforeTheHandlerRuns() {
    var lifecycle = RequestLifecycle(maxBodyBytes: 10)
    #expect(!answer(&lifecycle, HTTPResponse(status: 200)))
    _ = lifecycle.called(contentLength: nil)
    #expect(!answer(&lifecycle, HTTPResponse(status: 200)))
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

  @Test func callsWhileHandlingChangeNothing() {
    var lifecycle = RequestLifecycle(maxBodyBytes: 10)
    _ = lifecycle.called(contentLength: 2)
    _ = lifecycle.called(contentLength: 2)
    #expect(lifecycle.called(contentLength: nil) == .proceed)
    #expect(lifecycle.bodyReceived(count: 1) == .discard)
    #expect(lifecycle.state == .handling)
  }

  /// `lifecycle.answer(_:)` outside `#expect`, which cannot take a mutating call.
  private func answer(_ lifecycle: inout RequestLifecycle, _ response: HTTPResponse) -> Bool {
    lifecycle.answer(response)
  }
}
