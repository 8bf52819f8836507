import Foundation
import Tracing

/// `serve`'s OpenTelemetry options: where spans are exported (`--otlp-endpoint`, off without
/// it), the head sampling ratio and the service name the spans are reported under.
enum TracingOptions {
    static let names: Set<String> = ["--otlp-endpoint", "--trace-sample-ratio", "--service-name", "--trace-documents"]

    static let help = """
          --otlp-endpoint URL    export OpenTelemetry traces to this OTLP/HTTP collector (JSON, POST
                                 URL/v1/traces; env MUSICGRAPH_OTLP_ENDPOINT); off without it
          --trace-sample-ratio R share of new traces recorded, 0 to 1 (default 1; a client's
                                 traceparent decides for its own trace; env MUSICGRAPH_TRACE_SAMPLE_RATIO)
          --service-name NAME    the spans' service.name (default musicgraph; env MUSICGRAPH_SERVICE_NAME)
          --trace-documents      put each operation's GraphQL document in its span (graphql.document);
                                 off by default: documents hold what users typed

        """

    /// The tracer the options ask for, with its exporter's thread started; nil when no
    /// endpoint is given (tracing off).
    /// - Throws: `CLIError` for an endpoint that is not an http(s) URL or a ratio outside 0…1.
    static func tracer(
        _ args: CommandLineArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(CLIError) -> (tracer: Tracer, processor: BatchSpanProcessor)?
    {
        func setting(_ flag: String, _ variable: String) throws(CLIError) -> String? {
            try args.value(flag) ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }
        let ratioText = try setting("--trace-sample-ratio", "MUSICGRAPH_TRACE_SAMPLE_RATIO")
        let serviceName = try setting("--service-name", "MUSICGRAPH_SERVICE_NAME") ?? "musicgraph"
        guard let endpoint = try setting("--otlp-endpoint", "MUSICGRAPH_OTLP_ENDPOINT") else {
            if ratioText != nil { throw CLIError("--trace-sample-ratio needs --otlp-endpoint URL (tracing is off)") }
            if args.flag("--trace-documents") {
                throw CLIError("--trace-documents needs --otlp-endpoint URL (tracing is off)")
            }
            return nil
        }
        guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://") else {
            throw CLIError("--otlp-endpoint expects an http:// or https:// URL, got '\(endpoint)'")
        }
        var ratio = 1.0
        if let ratioText {
            guard let value = Double(ratioText), value >= 0, value <= 1 else {
                throw CLIError("--trace-sample-ratio expects a number from 0 to 1, got '\(ratioText)'")
            }
            ratio = value
        }
        let exporter = OTLPHTTPExporter(
            endpoint: endpoint,
            resource: [
                ("service.name", .string(serviceName)),
                ("service.instance.id", .string(UUID().uuidString.lowercased())),
                ("service.version", .string(BuildInfo.version)),
            ], version: BuildInfo.version)
        let processor = BatchSpanProcessor(export: { spans in exporter.export(spans) })
        let tracer = Tracer(processor: processor, sampleRatio: ratio, recordsDocuments: args.flag("--trace-documents"))
        return (tracer, processor)
    }

    /// The tracer's lines for `/metrics`.
    static func metricsText(_ tracer: Tracer) -> String {
        """
        # HELP musicgraph_trace_spans_dropped_total Spans dropped because the export queue was full.
        # TYPE musicgraph_trace_spans_dropped_total counter
        musicgraph_trace_spans_dropped_total \(tracer.droppedSpans)

        """
    }
}
