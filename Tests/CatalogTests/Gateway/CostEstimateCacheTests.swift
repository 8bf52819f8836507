import GraphQL
import Testing

@testable import Catalog

/// A repeated request reuses its estimate, and never another document's or variables'.
@Suite struct CostEstimateCacheTests {
    static let query = "query($n: Int) { albums(term: \"rock\", first: $n) { id tracks { videos { title } } } }"

    static func prepared(_ gateway: Gateway, _ text: String = query) throws -> PreparedDocument {
        guard case .success(let prepared) = gateway.prepare(text) else { throw HarnessError("rejected") }
        return prepared
    }

    @Test func aRepeatIsAnsweredWithoutWalkingTheDocumentAgain() throws {
        let gateway = try Gateway(configuration: GatewayConfiguration())
        let prepared = try Self.prepared(gateway)
        let five = JSONObject([("n", .int(5))])
        let first = gateway.estimatedCost(prepared: prepared, operationName: nil, variables: five)
        #expect(gateway.costEstimates.count == 1)
        var walked = 0
        let again = gateway.costEstimates.estimate(prepared: prepared, operationName: nil, variables: five) {
            walked += 1
            return QueryCost.Estimate(cost: -1, problems: [])
        }
        #expect(walked == 0)
        #expect(again == first)
        #expect(first.cost > 0)
    }

    @Test func otherVariablesAndOtherDocumentsAreEstimatedOnTheirOwn() throws {
        let gateway = try Gateway(configuration: GatewayConfiguration())
        let prepared = try Self.prepared(gateway)
        let small = gateway.estimatedCost(
            prepared: prepared, operationName: nil, variables: JSONObject([("n", .int(1))]))
        let large = gateway.estimatedCost(
            prepared: prepared, operationName: nil, variables: JSONObject([("n", .int(200))]))
        let uncached = QueryCost.analyze(
            document: prepared.document, source: prepared.source, operationName: nil,
            variables: JSONObject([("n", .int(200))]), schema: gateway.schema, model: gateway.costModel)
        #expect(large == uncached)
        #expect(small.cost < large.cost)
        // The same text prepared again is another document: estimated afresh, same answer.
        let twin = try Self.prepared(gateway)
        let nested = try Self.prepared(gateway, "{ albums(term: \"rock\", first: 50) { id artist { id } } }")
        #expect(
            gateway.estimatedCost(prepared: twin, operationName: nil, variables: JSONObject([("n", .int(1))]))
                == small)
        #expect(gateway.costEstimates.count == 3)
        #expect(
            gateway.estimatedCost(prepared: nested, operationName: nil, variables: JSONObject())
                == QueryCost.analyze(
                    document: nested.document, source: nested.source, operationName: nil, variables: JSONObject(),
                    schema: gateway.schema, model: gateway.costModel))
    }

    @Test func keepsAtMostThePlanCacheBoundPerDocument() throws {
        let gateway = try Gateway(configuration: GatewayConfiguration())
        let prepared = try Self.prepared(gateway)
        for n in 1...(ExecutionPlanCache.capacity + 5) {
            _ = gateway.estimatedCost(prepared: prepared, operationName: nil, variables: JSONObject([("n", .int(n))]))
        }
        #expect(gateway.costEstimates.count == ExecutionPlanCache.capacity)
    }

    @Test func aDroppedDocumentsEntriesAnswerNothing() throws {
        let gateway = try Gateway(configuration: GatewayConfiguration())
        do {
            let prepared = try Self.prepared(gateway)
            _ = gateway.estimatedCost(prepared: prepared, operationName: nil, variables: JSONObject())
            #expect(gateway.costEstimates.count == 1)
        }
        #expect(gateway.costEstimates.count == 0)
    }
}
