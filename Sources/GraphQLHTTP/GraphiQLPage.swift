import GraphQL

/// The HTML page served on GET of the GraphQL path to browsers (clients preferring `text/html`).
///
/// With `GraphiQLAssets` it loads React and GraphiQL from this server (`assetsPath`, a path
/// relative to the page, so the page also works behind a proxy that prefixes paths) and runs
/// GraphiQL with schema docs, autocomplete, history, and the variables and headers editors;
/// the headers typed there are sent with every request. The page always carries a small
/// built-in query box (document, variables, operation name, Run) that POSTs to the endpoint
/// with `fetch`: it is shown at once when the server has no GraphiQL files, and when they fail
/// to load. No third-party code is embedded in the page, and nothing comes from a CDN.
///
/// Both open on `?query=`, `?variables=` and `?operationName=` of the page's URL (read by the
/// script, so nothing from the URL is ever part of the HTML), else on `defaultQuery`, and
/// write each edit back to the address bar, so the address is a link to what is in the editors.
enum GraphiQLPage {
    /// The page for an endpoint at `endpointPath`; `assetsPath` is where the files of
    /// `GraphiQLAssets.fileNames` are served, relative to the page, or nil when there are none.
    /// `defaultQuery` is the document a first visit opens on; nil keeps GraphiQL's welcome text.
    static func html(endpointPath: String, assetsPath: String?, defaultQuery: String? = nil) -> String {
        let endpointLiteral = scriptLiteral(endpointPath)
        let defaultQueryLiteral = defaultQuery.map(scriptLiteral) ?? "null"
        let stylesheet = assetsPath.map { "<link rel=\"stylesheet\" href=\"\($0)graphiql.min.css\">\n" } ?? ""
        let scripts =
            assetsPath.map { path in
                GraphiQLAssets.fileNames.filter { $0.hasSuffix(".js") }.map {
                    "<script src=\"\(path)\($0)\"></script>\n"
                }
                .joined()
            } ?? ""
        let note =
            assetsPath == nil
            ? "GraphiQL is not installed on this server (see the README: Debian's python3-django-graphene, "
                + "or <code>serve --graphiql-assets DIR</code>)."
            : "GraphiQL could not be loaded from this server."
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>MusicGraph · GraphiQL</title>
            \(stylesheet)<style>
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
              <p class="note">\(note)
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
              var defaultQuery = \(defaultQueryLiteral);
              // A link opens on the query, variables and operation name in its URL; a link with a
              // query but no variables opens with none rather than those of an earlier visit.
              var linked = new URLSearchParams(window.location.search);
              function fromLink(name) { return linked.has(name) ? linked.get(name) : undefined; }
              function stored(name) {
                // What GraphiQL kept from an earlier visit (it opens on that before defaultQuery).
                try { return window.localStorage.getItem("graphiql:" + name); } catch (error) { return null; }
              }
              var linkedQuery = fromLink("query");
              var shared = {
                query: linkedQuery !== undefined ? linkedQuery : stored("query") || defaultQuery,
                variables: fromLink("variables") !== undefined ? fromLink("variables")
                  : linkedQuery !== undefined ? "" : stored("variables"),
                operationName: fromLink("operationName") !== undefined ? fromLink("operationName")
                  : linkedQuery !== undefined ? "" : stored("operationName")
              };
              // Each edit replaces the address (no history entry per keystroke); parameters other
              // than these three are kept.
              function share(name, value) {
                shared[name] = value;
                var parameters = new URLSearchParams(window.location.search);
                ["query", "variables", "operationName"].forEach(function (key) {
                  if (shared[key]) parameters.set(key, shared[key]);
                  else parameters.delete(key);
                });
                var search = parameters.toString();
                window.history.replaceState(window.history.state, "",
                  window.location.pathname + (search ? "?" + search : "") + window.location.hash);
              }
              function showFallback() {
                document.getElementById("graphiql").style.display = "none";
                document.getElementById("fallback").style.display = "block";
                document.getElementById("endpoint").textContent = endpoint;
                var fields = { query: "query", variables: "variables", operationName: "operation" };
                Object.keys(fields).forEach(function (name) {
                  var field = document.getElementById(fields[name]);
                  if (shared[name]) field.value = shared[name];
                  field.addEventListener("input", function () { share(name, field.value); });
                });
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
              // GraphiQL 1.x and 2+ call fetcher(params, options) with the headers typed in the
              // headers editor as an object in options.headers.
              function graphiQLFetcher(params, options) {
                var headers = { "Content-Type": "application/json",
                                "Accept": "application/graphql-response+json, application/json" };
                var typed = (options && options.headers) || {};
                for (var name in typed) {
                  if (Object.prototype.hasOwnProperty.call(typed, name)) headers[name] = String(typed[name]);
                }
                return fetch(endpoint, { method: "POST", headers: headers, body: JSON.stringify(params),
                                         credentials: "same-origin" })
                  .then(function (response) { return response.text(); })
                  .then(function (text) { try { return JSON.parse(text); } catch (error) { return text; } });
              }
              window.addEventListener("load", function () {
                if (typeof React === "undefined" || typeof ReactDOM === "undefined" || typeof GraphiQL === "undefined") {
                  showFallback();
                  return;
                }
                var props = {
                  fetcher: graphiQLFetcher, headerEditorEnabled: true, isHeadersEditorEnabled: true,
                  shouldPersistHeaders: false,
                  onEditQuery: function (value) { share("query", value); },
                  onEditVariables: function (value) { share("variables", value); },
                  onEditOperationName: function (value) { share("operationName", value); }
                };
                if (defaultQuery !== null) props.defaultQuery = defaultQuery;
                if (linkedQuery !== undefined) props.query = linkedQuery;
                if (linkedQuery !== undefined || linked.has("variables")) {
                  props.variables = shared.variables;
                  props.defaultVariableEditorOpen = shared.variables !== "";
                }
                if (linked.has("operationName")) props.operationName = shared.operationName;
                var element = React.createElement(GraphiQL, props);
                var container = document.getElementById("graphiql");
                if (ReactDOM.createRoot) ReactDOM.createRoot(container).render(element);
                else ReactDOM.render(element, container);
              });
            </script>
            \(scripts)</body>
            </html>

            """
    }

    /// `text` as a JavaScript string literal that cannot end the `<script>` element it is in:
    /// JSON-encoded, then `<`, `>` and `&` as `\u` escapes (in JSON they only occur inside
    /// strings, where the escape means the same character), so neither `</script>` nor `<!--`
    /// can appear; U+2028 and U+2029 too, which older browsers took for line ends in literals.
    static func scriptLiteral(_ text: String) -> String {
        var literal = ""
        for character in JSONWriter.string(.string(text)).unicodeScalars {
            switch character {
            case "<": literal += "\\u003c"
            case ">": literal += "\\u003e"
            case "&": literal += "\\u0026"
            case "\u{2028}": literal += "\\u2028"
            case "\u{2029}": literal += "\\u2029"
            default: literal.unicodeScalars.append(character)
            }
        }
        return literal
    }
}
