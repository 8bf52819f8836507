import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct AppleMusicRoutesTests {
        let auth = ["Authorization": "Bearer demo"]

        @Test func missingTokenIs401WithEmptyJSONBody() async throws {
            let demo = try await Demo.make()
            for headers in [[:], ["Authorization": "Bearer "], ["Authorization": "Basic abc"]] {
                let response = await Demo.get(demo, "/v1/catalog/us/albums/200001", headers: headers)
                #expect(response.status == 401)
                #expect(response.body.isEmpty)
                #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            }
        }

        @Test func unknownAlbumIs404WithErrorsArray() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/v1/catalog/us/albums/123", headers: auth)
            #expect(response.status == 404)
            let errors = try #require((try Demo.json(response) as? [String: Any])?["errors"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors[0]["status"] as? String == "404")
            #expect(errors[0]["code"] as? String == "40400")
            #expect(errors[0]["title"] as? String == "Resource Not Found")
        }

        @Test func searchLimitAbove25IsInvalidParameterValue() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(
                demo, "/v1/catalog/us/search", "term=rock&types=albums&limit=26", headers: auth)
            #expect(response.status == 400)
            let error = try #require(
                ((try Demo.json(response) as? [String: Any])?["errors"] as? [[String: Any]])?.first)
            #expect(error["code"] as? String == "40005")
            #expect((error["source"] as? [String: Any])?["parameter"] as? String == "limit")
        }

        @Test func searchPagesWithNextLinks() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/v1/catalog/us/search", "term=iron+maiden&types=albums", headers: auth)
            let results = try #require((try Demo.json(response) as? [String: Any])?["results"] as? [String: Any])
            let albums = try #require(results["albums"] as? [String: Any])
            #expect(albums["href"] as? String == "/v1/catalog/us/search?limit=5&term=iron+maiden&types=albums")
            #expect(albums["next"] as? String == "/v1/catalog/us/search?offset=5&term=iron+maiden&types=albums")
            #expect((albums["data"] as? [Any])?.count == 5)
        }

        @Test func tracksRelationshipPages() async throws {
            let demo = try await Demo.make(.init(appleMusicTracksPageSize: 3))
            let album = await Demo.get(demo, "/v1/catalog/us/albums/200004", headers: auth).text
            #expect(
                album.contains(
                    #""tracks":{"href":"/v1/catalog/us/albums/200004/tracks","next":"/v1/catalog/us/albums/200004/tracks?offset=3","data":["#
                ))
            let page = try Demo.json(
                await Demo.get(demo, "/v1/catalog/us/albums/200004/tracks", "offset=6", headers: auth))
            let object = try #require(page as? [String: Any])
            #expect(object["next"] == nil)
            #expect((object["data"] as? [Any])?.count == 2)
        }

        @Test func batchOfIdsDropsUnknownsAndCapsAt100() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/v1/catalog/us/albums", "ids=200002,7,200001,200002", headers: auth)
            let data = try #require((try Demo.json(response) as? [String: Any])?["data"] as? [[String: Any]])
            #expect(data.map { $0["id"] as? String } == ["200002", "200001"])
            let many = (1...101).map { String(200_000 + $0) }.joined(separator: ",")
            #expect(await Demo.get(demo, "/v1/catalog/us/albums", "ids=\(many)", headers: auth).status == 400)
        }

        @Test func artistAndItsAlbums() async throws {
            let demo = try await Demo.make()
            let artist = await Demo.get(demo, "/v1/catalog/us/artists/100090", headers: auth)
            #expect(artist.text.contains(#""name":"Iron Maiden""#))
            let albums = try Demo.json(await Demo.get(demo, "/v1/catalog/us/artists/100090/albums", headers: auth))
            let object = try #require(albums as? [String: Any])
            #expect((object["data"] as? [Any])?.count == 21)
            #expect(object["next"] == nil)
        }
    }
}
