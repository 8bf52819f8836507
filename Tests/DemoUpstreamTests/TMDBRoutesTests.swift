import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct TMDBRoutesTests {
        @Test func missingKeyIsStatusCode7InWireOrder() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/3/search/movie", "query=x")
            #expect(response.status == 401)
            #expect(
                response.text
                    == #"{"success":false,"status_code":7,"status_message":"Invalid API key: You must be granted a valid key."}"#
            )
            // A v4 Bearer token works instead of api_key.
            #expect(
                await Demo.get(demo, "/3/search/movie", "query=x", headers: ["Authorization": "Bearer t"]).status == 200
            )
        }

        @Test func searchShape() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/3/search/movie", "query=AC%2FDC&api_key=k")
            #expect(
                response.text.hasPrefix(
                    #"{"page":1,"results":[{"adult":false,"backdrop_path":null,"genre_ids":[18,10402],"id":500001,"original_language":"en","original_title":"AC/DC: The Story","#
                ))
            #expect(response.text.hasSuffix(#""total_pages":1,"total_results":1}"#))
        }

        @Test func pagesBeyond500AreStatusCode22() async throws {
            let demo = try await Demo.make()
            for page in ["0", "501", "x"] {
                let response = await Demo.get(demo, "/3/search/movie", "query=a&page=\(page)&api_key=k")
                #expect(response.status == 400)
                #expect(response.text.contains(#""status_code":22"#))
            }
            let second = try #require(
                try Demo.json(await Demo.get(demo, "/3/search/movie", "query=the&page=2&api_key=k")) as? [String: Any])
            #expect(second["page"] as? Int == 2)
        }

        @Test func movieVideosAndUnknownMovie() async throws {
            let demo = try await Demo.make()
            let videos = try #require(
                try Demo.json(await Demo.get(demo, "/3/movie/500001/videos", "api_key=k")) as? [String: Any])
            #expect(videos["id"] as? Int == 500001)
            #expect(
                ((videos["results"] as? [[String: Any]])?.map { $0["type"] as? String }) == [
                    "Trailer", "Teaser", "Clip",
                ])
            let missing = await Demo.get(demo, "/3/movie/1/videos", "api_key=k")
            #expect(missing.status == 404)
            #expect(
                missing.text
                    == #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#
            )
        }
    }
}
