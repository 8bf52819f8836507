import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct RakutenRoutesTests {
        let path = "/services/api/BooksCD/Search/20170404"

        @Test func missingApplicationId() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, path, "artistName=Queen")
            #expect(response.status == 400)
            #expect(response.text == #"{"error":"wrong_parameter","error_description":"specify valid applicationId"}"#)
        }

        @Test func formatVersionsAndPaging() async throws {
            let demo = try await Demo.make()
            let v2 = try #require(
                try Demo.json(await Demo.get(demo, path, "applicationId=a&artistName=Queen&formatVersion=2&hits=2"))
                    as? [String: Any])
            #expect(v2["count"] as? Int == 3)
            #expect(v2["pageCount"] as? Int == 2)
            #expect(v2["first"] as? Int == 1)
            #expect(v2["last"] as? Int == 2)
            let items = try #require(v2["Items"] as? [[String: Any]])
            #expect(items.map { $0["title"] as? String } == ["Greatest Hits II", "Greatest Hits I"])
            let v1 = try #require(
                try Demo.json(await Demo.get(demo, path, "applicationId=a&artistName=Queen&hits=2&page=2"))
                    as? [String: Any])
            let wrapped = try #require(v1["Items"] as? [[String: Any]])
            #expect(wrapped.compactMap { ($0["Item"] as? [String: Any])?["title"] as? String } == ["News Of The World"])
            #expect(v1["first"] as? Int == 3)
        }

        @Test func itemFields() async throws {
            let demo = try await Demo.make()
            let text = await Demo.get(demo, path, "applicationId=a&title=Let+There+Be+Rock&formatVersion=2").text
            #expect(
                text.contains(
                    #""playList":"Go Down###Dog Eat Dog###Let There Be Rock###Bad Boy Boogie###Problem Child###Overdose###Hell Ain't A Bad Place To Be###Whole Lotta Rosie""#
                ))
            #expect(text.contains(#""artistName":"AC/DC""#))
            #expect(text.contains("年") && text.contains("月") && text.contains("日\""))
            // Every eleventh album has an empty play list, as many real items do.
            let eleven = await Demo.get(demo, path, "applicationId=a&title=Out+Of+Exile&formatVersion=2").text
            #expect(eleven.contains(#""playList":"""#))
        }

        @Test func emptyResultHasAllZeroCounters() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, path, "applicationId=a&artistName=zzzzzz")
            #expect(
                response.text
                    == #"{"count":0,"page":0,"first":0,"last":0,"hits":0,"carrier":0,"pageCount":0,"Items":[],"GenreInformation":[]}"#
            )
        }

        @Test func parameterChecks() async throws {
            let demo = try await Demo.make()
            #expect(await Demo.get(demo, path, "applicationId=a").status == 400)
            #expect(await Demo.get(demo, path, "applicationId=a&artistName=Queen&hits=31").status == 400)
            #expect(await Demo.get(demo, path, "applicationId=a&artistName=Queen&page=101").status == 400)
            #expect(await Demo.get(demo, path, "applicationId=a&artistName=Queen&page=9").status == 404)
        }
    }
}
