/// The full introspection query (spec §4.2; graphql-js `getIntrospectionQuery` with every
/// option on): schema description, descriptions, `specifiedByURL`, `isRepeatable`,
/// deprecated arguments and input fields, `isOneOf`, and type references nine wrappers deep.
/// GraphiQL-compatible; `musicgraph schema --json` runs it.
public let introspectionQuery = """
    query IntrospectionQuery {
      __schema {
        description
        queryType { name kind }
        mutationType { name kind }
        subscriptionType { name kind }
        types { ...FullType }
        directives {
          name
          description
          isRepeatable
          locations
          args(includeDeprecated: true) { ...InputValue }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      specifiedByURL
      isOneOf
      fields(includeDeprecated: true) {
        name
        description
        args(includeDeprecated: true) { ...InputValue }
        type { ...TypeRef }
        isDeprecated
        deprecationReason
      }
      inputFields(includeDeprecated: true) { ...InputValue }
      interfaces { ...TypeRef }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes { ...TypeRef }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
      isDeprecated
      deprecationReason
    }

    fragment TypeRef on __Type {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                    ofType {
                      kind
                      name
                      ofType { kind name }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    """

/// Runs `introspectionQuery` against `schema` (graphql-js `introspectionFromSchema`).
/// - Returns: the response; its `data` is `{"__schema": …}` (errors only if the schema
///   lacks the introspection types).
public func introspectionFromSchema(_ schema: Schema) -> ExecutionResult {
    let source = Source(introspectionQuery, name: "IntrospectionQuery")
    do {
        let document = try parse(source)
        return executeSynchronously(schema: schema, document: document, source: source)
    } catch {
        return ExecutionResult(data: nil, errors: [error])
    }
}
