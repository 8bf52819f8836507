import Testing

@testable import Tracing

@Suite struct TraceParentTests {
    @Test func readsAValidHeaderAndWritesItBack() throws {
        let header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let parent = try #require(TraceParent(header: header, traceState: "congo=t61rcWkgMzE"))
        #expect(parent.traceID.hex == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.parentID.hex == "00f067aa0ba902b7")
        #expect(parent.sampled)
        #expect(parent.traceState == "congo=t61rcWkgMzE")
        #expect(parent.header == header)
    }

    @Test func refusesInvalidHeaders() {
        for header in [
            "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        ] {
            #expect(TraceParent(header: header) == nil, "\(header)")
        }
        // A later version may append fields (W3C Trace Context §3.2.4).
        #expect(TraceParent(header: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-later")?.sampled == false)
    }

    @Test func randomIdsAreValidAndDiffer() {
        let first = TraceID.random()
        #expect(first.isValid)
        #expect(first != TraceID.random())
        #expect(SpanID.random().value != 0)
        #expect(first.hex.count == 32)
    }

    @Test func encodesSpansAsOTLPJSON() throws {
        let span = SpanData(
            name: "POST /graphql", kind: .server,
            traceID: TraceID(high: 0x4bf9_2f35_77b3_4da6, low: 0xa3ce_929d_0e0e_4736), spanID: SpanID(1),
            parentID: SpanID(0xff), traceState: nil, startNanos: 1_700_000_000_000_000_000,
            endNanos: 1_700_000_000_000_000_123,
            attributes: [("http.response.status_code", .int(200)), ("a\"b", .string("x\ny")), ("ok", .bool(true))],
            error: "500")
        let json = String(
            decoding: OTLPJSON.exportRequest(
                [span], resource: [("service.name", .string("musicgraph"))], scopeVersion: "1"),
            as: UTF8.self)
        #expect(json.contains(#""traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"0000000000000001""#))
        #expect(json.contains(#""parentSpanId":"00000000000000ff""#))
        #expect(json.contains(#""kind":2"#))
        #expect(json.contains(#""startTimeUnixNano":"1700000000000000000""#))
        #expect(json.contains(#"{"key":"http.response.status_code","value":{"intValue":"200"}}"#))
        #expect(json.contains(#"{"key":"a\"b","value":{"stringValue":"x\ny"}}"#))
        #expect(json.contains(#""status":{"code":2,"message":"500"}"#))
    }

    @Test func aFullQueueDropsAndCounts() {
        let processor = BatchSpanProcessor(capacity: 2, batchSize: 100, interval: .seconds(60)) { _ in }
        let tracer = Tracer(processor: processor)
        for _ in 0..<5 { tracer.serverSpan("GET /graphql", parent: nil).end() }
        #expect(tracer.droppedSpans == 3)
        processor.shutdown()
    }
}
