import GraphQL
import UpstreamEconomy

/// The transforms that make TMDB's answers the gateway's `Movie` and `Video` objects, for the
/// TMDB fields `schema.graphql` declares. TMDB's JSON could be read member by member, but its
/// errors (`status_code` 7, 25, 34 in a JSON body), its empty release dates and its poster
/// paths (joined to the image server's base URL) need the provider's decoding.
enum TMDBTransforms {
    static let all: [ConnectorTransform] = [searchMovies, movie, movieVideos]

    /// `/3/search/movie`: the page's movies.
    static let searchMovies = ConnectorTransform("tmdb.searchMovies", returns: "Movie", isList: true) {
        status, headers, body throws(UpstreamError) in
        .hosts(
            try TMDBProvider.decodeSearch(status: status, headers: headers, body: body).items.map(MovieNode.init))
    }

    /// `/3/movie/{id}`: one movie; null when TMDB does not know it (404, status_code 34).
    static let movie = ConnectorTransform("tmdb.movie", returns: "Movie", isList: false) {
        status, headers, body throws(UpstreamError) in
        guard status != 404 else { return .null }
        return .object(MovieNode(movie: try TMDBProvider.decodeMovie(status: status, headers: headers, body: body)))
    }

    /// `/3/movie/{id}/videos`: a movie's videos; an unknown movie (404, status_code 34) has none.
    static let movieVideos = ConnectorTransform("tmdb.movieVideos", returns: "Video", isList: true) {
        status, headers, body throws(UpstreamError) in
        guard status != 404 else { return .list([]) }
        return .hosts(try TMDBProvider.decodeVideos(status: status, headers: headers, body: body).map(VideoNode.init))
    }
}
