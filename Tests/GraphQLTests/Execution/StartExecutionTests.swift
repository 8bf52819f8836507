import Testing

@testable import GraphQL

/// `startExecution`: finished on the caller's thread when no field answers later, else
/// pending, and then the same result as `execute`.
@Suite struct StartExecutionTests {
    static let schema = "type Query { now: Int later: Int } type Mutation { set: Int }"

    struct Resolvers: ExecutionResolvers {
        func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
            switch field.name {
            case "later": return AsyncResolver { _, _, _ in .json(.int(2)) }
            default: return nil
            }
        }
    }

    func start(_ text: String, variables: JSONObject = JSONObject()) throws -> ExecutionStart {
        startExecution(
            schema: try Harness.schema(Self.schema), document: try parse(text), source: Source(text),
            rootValue: .json(.object(JSONObject([("now", .int(1)), ("set", .int(3))]))), variableValues: variables,
            resolvers: Resolvers())
    }

    @Test func synchronousFieldsAndRequestErrorsFinishAtOnce() throws {
        guard case .finished(let result) = try start("{ now __typename }") else {
            Issue.record("pending without a later field")
            return
        }
        #expect(String(decoding: result.dataJSON ?? [], as: UTF8.self) == #"{"now":1,"__typename":"Query"}"#)
        guard case .finished(let failed) = try start("query ($n: Int!) { now }") else {
            Issue.record("a request error was left pending")
            return
        }
        #expect(failed.dataJSON == nil)
        #expect(failed.errors.first?.message.contains("$n") == true)
    }

    @Test func aLaterFieldOrAMutationIsPendingUntilFinished() async throws {
        guard case .pending(let pending) = try start("{ now later }") else {
            Issue.record("finished with a later field")
            return
        }
        let result = await pending.finish()
        #expect(String(decoding: result.dataJSON ?? [], as: UTF8.self) == #"{"now":1,"later":2}"#)
        guard case .pending(let mutation) = try start("mutation { set }") else {
            Issue.record("a mutation was finished before its serial execution")
            return
        }
        #expect(String(decoding: await mutation.finish().dataJSON ?? [], as: UTF8.self) == #"{"set":3}"#)
    }
}
