import GraphQL

/// The HTML page served on GET of the GraphQL path to browsers (clients preferring `text/html`).
///
/// It loads GraphiQL 3 from unpkg.com. Our machines have no internet, so the page always
/// carries a small built-in query box (document, variables, operation name, Run) that POSTs to
/// the endpoint with `fetch`; when GraphiQL cannot load it says so and the box is what remains.
/// No third-party code is embedded: only the CDN URLs.
enum GraphiQLPage {
    /// The page for an endpoint at `endpointPath`.
    static func html(endpointPath: String) -> String {
        // The path is JSON-encoded for the script and then made safe inside <script> (no "</").
        let endpointLiteral = JSONWriter.string(.string(endpointPath)).replacing("</", with: "<\\/")
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>MusicGraph · GraphiQL</title>
            <link rel="stylesheet" href="https://unpkg.com/graphiql@3/graphiql.min.css">
            <style>
              html, body { height: 100%; margin: 0; font-family: system-ui, sans-serif; }
              #graphiql { height: 100vh; }
              #fallback { display: none; padding: 1rem 1.5rem; max-width: 70rem; }
              #fallback textarea { width: 100%; font-family: ui-monospace, monospace; font-size: 0.9rem; }
              #fallback pre { background: #f4f4f4; padding: 0.75rem; overflow: auto; min-height: 6rem; }
              .note { background: #fff6d6; border: 1px solid #e5c86b; padding: 0.5rem 0.75rem; }
            </style>
            </head>
            <body>
            <div id="graphiql"></div>
            <div id="fallback">
              <h1>MusicGraph query box</h1>
              <p class="note">GraphiQL could not be loaded from unpkg.com (this machine may be offline).
              This built-in box sends your query to <code id="endpoint"></code> instead.
              From a terminal: <code>curl -H 'Content-Type: application/json' -d '{"query":"{ __typename }"}' URL</code>.</p>
              <label for="query">Query</label>
              <textarea id="query" rows="14">{
              __typename
            }</textarea>
              <label for="variables">Variables (JSON object)</label>
              <textarea id="variables" rows="4">{}</textarea>
              <label for="operation">Operation name (optional)</label>
              <input id="operation" type="text">
              <p><button id="run" type="button">Run (Ctrl+Enter)</button> <span id="status"></span></p>
              <pre id="result"></pre>
            </div>
            <script>
              var endpoint = \(endpointLiteral);
              function showFallback() {
                document.getElementById("graphiql").style.display = "none";
                document.getElementById("fallback").style.display = "block";
                document.getElementById("endpoint").textContent = endpoint;
              }
              function runQuery() {
                var status = document.getElementById("status");
                var result = document.getElementById("result");
                var variables;
                try {
                  variables = JSON.parse(document.getElementById("variables").value || "{}");
                } catch (error) {
                  status.textContent = "Variables are not valid JSON: " + error.message;
                  return;
                }
                var body = { query: document.getElementById("query").value, variables: variables };
                var operation = document.getElementById("operation").value.trim();
                if (operation) body.operationName = operation;
                status.textContent = "running…";
                var started = Date.now();
                fetch(endpoint, {
                  method: "POST",
                  headers: { "Content-Type": "application/json",
                             "Accept": "application/graphql-response+json, application/json" },
                  body: JSON.stringify(body)
                }).then(function (response) {
                  return response.text().then(function (text) {
                    status.textContent = "HTTP " + response.status + " in " + (Date.now() - started) + " ms";
                    try { result.textContent = JSON.stringify(JSON.parse(text), null, 2); }
                    catch (error) { result.textContent = text; }
                  });
                }).catch(function (error) { status.textContent = "request failed: " + error.message; });
              }
              document.getElementById("run").addEventListener("click", runQuery);
              document.addEventListener("keydown", function (event) {
                if (event.ctrlKey && event.key === "Enter" && document.getElementById("fallback").style.display === "block") runQuery();
              });
              window.addEventListener("load", function () {
                if (typeof React === "undefined" || typeof ReactDOM === "undefined" || typeof GraphiQL === "undefined") {
                  showFallback();
                  return;
                }
                var fetcher = GraphiQL.createFetcher({ url: endpoint });
                ReactDOM.createRoot(document.getElementById("graphiql"))
                  .render(React.createElement(GraphiQL, { fetcher: fetcher }));
              });
            </script>
            <script crossorigin src="https://unpkg.com/react@18/umd/react.production.min.js"></script>
            <script crossorigin src="https://unpkg.com/react-dom@18/umd/react-dom.production.min.js"></script>
            <script crossorigin src="https://unpkg.com/graphiql@3/graphiql.min.js"></script>
            </body>
            </html>

            """
    }
}
