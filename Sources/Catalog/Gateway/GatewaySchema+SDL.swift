// Generated from schema.graphql by scripts/embed-schema.sh (`make schema`). Do not edit.
extension GatewaySchema {
    /// The text of `schema.graphql` at build time.
    public static let sdl = #"""
        """
        MusicGraph: artists, albums, tracks, videos and movies from the iTunes Search, Apple Music,
        Rakuten Books CD, YouTube Data and TMDB APIs, in one round trip.
        """
        # TMDB is declared here rather than written in Swift: its calls are the connectors on
        # `Query.movies`, `Movie.videos` and the type `Movie` (which `node` reads a movie by). The key
        # and base URL the gateway is configured with (`TMDB_API_KEY`, `--upstream`,
        # `MUSICGRAPH_TMDB_URL`) win over the ones written here. The connector directives and their
        # input types below configure the gateway: clients do not see them.
        schema
          @upstream(
            name: "tmdb"
            baseURL: "https://api.themoviedb.org"
            query: [{ name: "api_key", value: "{$env.TMDB_API_KEY}" }]
            maxAgeSeconds: 3600
          ) {
          query: Query
        }

        """
        The upstream quota units a field costs each time it is resolved (once per parent object, or
        once per batch of parents where the gateway batches ids into one lookup), or that a value of a
        type costs (IBM GraphQL Cost Directives, as Apollo Router, Hive Gateway, Grafbase and Cosmo
        read them). The gateway estimates a query from these weights before running it (`--max-query-cost`).
        """
        directive @cost(
          "Quota units, at least 0."
          weight: Int!
        ) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR

        """
        The size of the list a field returns, for the cost estimate: the value of one of its slicing
        arguments, else `assumedSize` (IBM GraphQL Cost Directives).
        """
        directive @listSize(
          "The size assumed when no slicing argument has a value."
          assumedSize: Int
          "Arguments that bound the list's length (such as `first`)."
          slicingArguments: [String!]
          "Fields of the returned object that the size applies to (connections), instead of the field itself."
          sizedFields: [String!]
          "Whether a query must give exactly one slicing argument a value (a default counts)."
          requireOneSlicingArgument: Boolean = true
        ) on FIELD_DEFINITION

        """
        MusicGraph's addition to `@cost`: the field's weight when its enum argument `argument` has the
        value `value` (a cheaper upstream answers it). Gateways that do not know it use `@cost`, an
        upper bound.
        """
        directive @costWhen(
          "The argument's name."
          argument: String!
          "The enum value, as written in a query."
          value: String!
          "Quota units, at least 0."
          weight: Int!
        ) repeatable on FIELD_DEFINITION

        "A name and a value (a template) of a query entry or a header."
        input KeyValue {
          "The entry's or header's name."
          name: String!
          "Its value: text with `{$args.NAME}`, `{$parent.PATH}` or `{$env.NAME}` holes."
          value: String!
        }

        """
        How a connector batches its parents: `param` carries up to `max` parents' values, joined by
        `join` (repeated when empty); `key` is the member of each answered entry that names its parent.
        """
        input Batch {
          "The query entry that carries the parents' values."
          param: String!
          "What joins the values; empty: one entry per value."
          join: String = ","
          "The most parents one request carries."
          max: Int!
          "The member of each answered entry that names its parent."
          key: String!
        }

        """
        An upstream API the schema's connectors call: where it is, what every call carries, its price
        per call and its daily quota.
        """
        directive @upstream(
          "The upstream's name, which connectors, quotas and metrics use."
          name: String!
          "`scheme://host[:port][/path]`, without templates."
          baseURL: String!
          "Query entries every call carries (secrets as `{$env.NAME}`)."
          query: [KeyValue!]
          "Headers every call carries (secrets as `{$env.NAME}`)."
          headers: [KeyValue!]
          "The quota units each call costs."
          unitsPerCall: Int = 1
          "Quota units a day; none: no daily limit."
          dailyUnits: Int
          "The longest a field waits for an answer, in milliseconds."
          timeoutMs: Int
          "How long an answer stays fresh when the upstream sends no `Cache-Control`, in seconds."
          maxAgeSeconds: Int
        ) repeatable on SCHEMA

        """
        A connector. On a field: the field is the answer of a GET to an upstream, at `select` in its
        body. On one of the gateway's own types: how `node` reads one object of it by `{$args.id}`,
        its upstream id.
        """
        directive @http(
          "The `@upstream` to call."
          upstream: String!
          "The path below the upstream's base URL; each hole fills one segment."
          path: String!
          "Query entries; each hole fills one value."
          query: [KeyValue!]
          "The dotted path to the answer in the response body; none: the body."
          select: String
          "How parents share one request."
          batch: Batch
          "Whether a 404 answers null rather than an error."
          nullOn404: Boolean = false
          "A named Swift decoder that makes the answer instead of `select`."
          transform: String
          """
          The most entries the field hands out: its `@listSize` slicing argument must lie between 1
          and this, and the list is cut to the argument's value.
          """
          pageSize: Int
        ) on FIELD_DEFINITION | OBJECT

        "The field reads this JSON member or dotted path of its parent."
        directive @from(
          "A member name or a dotted path (`artist-credit.0.name`)."
          path: String!
        ) on FIELD_DEFINITION

        """
        Directs the executor to defer this fragment when the `if` argument is true or undefined
        (incremental delivery: the gateway answers the fragment's fields in a later payload, over HTTP
        with `Accept: multipart/mixed`; without it the whole answer comes at once).
        """
        directive @defer(
          "Deferred when true or undefined."
          if: Boolean! = true
          "Unique name"
          label: String
        ) on FRAGMENT_SPREAD | INLINE_FRAGMENT

        """
        Directs the executor to stream plural fields when the `if` argument is true or undefined
        (incremental delivery: the items after the first `initialCount` come in later payloads).
        """
        directive @stream(
          "Number of items to return immediately"
          initialCount: Int! = 0
          "Stream when true or undefined."
          if: Boolean! = true
          "Unique name"
          label: String
        ) on FIELD

        """
        The entry points. Every field reads its upstream only when selected; ids are opaque global
        ids that carry their provider, such as `itunes:album:1440857781`. The root lists
        (`artists`, `albums`, `videos`, `movies`) are non-null: when their upstream fails, the error
        carries the field's path and, as the GraphQL spec propagates a null through a non-null
        field, `data` is null. The single-object root fields and every nested list are nullable:
        when their upstream fails, that field alone is null with an error at its path and the rest
        of the response stays intact.
        """
        type Query {
          "The best match for `name`, or the artist with global id `id` (give one of the two)."
          artist(
            "An artist name to search for; the upstream's best match is returned."
            name: String
            "A global artist id, e.g. `itunes:artist:136975`."
            id: ID
          ): Artist @cost(weight: 1)

          "Artists whose name matches `name`, in the upstream's ranking."
          artists(
            "The name to search for."
            name: String!
            "How many artists to return at most (1–50)."
            first: Int = 10
            "Which catalog to search."
            source: CatalogSource = ITUNES
          ): [Artist!]! @cost(weight: 1) @listSize(slicingArguments: ["first"])

          """
          The album with global id `id`, or null when the upstream does not know it. iTunes and
          Apple Music albums are read in batches (`lookup?id=`, `albums?ids=`); Rakuten albums by
          a search on their JAN code, one request each (Rakuten has no lookup endpoint).
          """
          album("A global album id, e.g. `itunes:album:1440857781`." id: ID!): Album @cost(weight: 1)

          "Albums whose title or artist matches `term`, in the upstream's ranking."
          albums(
            "The words to search for."
            term: String!
            "How many albums to return at most (1–50)."
            first: Int = 10
            "Which catalog to search."
            source: CatalogSource = ITUNES
          ): [Album!]! @cost(weight: 1) @listSize(slicingArguments: ["first"])

          """
          The track with global id `id`, or null when the upstream does not know it. Rakuten
          tracks (`rakuten:track:<JAN>-<position>`) are read with their album.
          """
          track("A global track id, e.g. `itunes:track:1440857893`." id: ID!): Track @cost(weight: 1)

          "The short-video feed: YouTube videos matching `query`."
          videos(
            "The words to search for."
            query: String!
            "How many videos to return at most (1–50)."
            first: Int = 10
            "Only videos of this length."
            duration: VideoDuration = ANY
          ): [Video!]! @cost(weight: 100) @listSize(slicingArguments: ["first"])

          "Movies whose title matches `query` (TMDB)."
          movies(
            "The title to search for."
            query: String!
            "How many movies to return at most (1–20)."
            first: Int = 10
          ): [Movie!]!
            @cost(weight: 1)
            @listSize(slicingArguments: ["first"])
            @http(
              upstream: "tmdb"
              path: "/3/search/movie"
              query: [
                { name: "query", value: "{$args.query}" }
                { name: "include_adult", value: "false" }
                { name: "language", value: "en-US" }
                { name: "page", value: "1" }
              ]
              transform: "tmdb.searchMovies"
              pageSize: 20
            )

          """
          Any object by its global id: an artist, album, track, video or movie, or null when the
          upstream does not know it. TMDB videos (`tmdb:video:…`) are the one exception: TMDB has
          no endpoint that reads a video by its key, so they answer an `UNSUPPORTED` error; reach
          them through `Movie.videos`.
          """
          node("A global id as returned by any `id` field." id: ID!): Node @cost(weight: 1)
        }

        "An object with a global id that `Query.node` can fetch again."
        interface Node {
          "A global id: `<provider>:<kind>:<upstream id>`, opaque to clients."
          id: ID!
        }

        "The catalogs artists and albums can come from."
        enum CatalogSource {
          "The iTunes Search API (no key needed)."
          ITUNES
          "The Apple Music API (needs `APPLE_MUSIC_TOKEN`)."
          APPLE_MUSIC
          "Rakuten Books CD search (needs `RAKUTEN_APP_ID`)."
          RAKUTEN
        }

        "Where a track's videos come from."
        enum VideoSource {
          "A YouTube search for the artist and title (needs `YOUTUBE_API_KEY`)."
          YOUTUBE
          "iTunes music videos matching the artist and title."
          ITUNES
        }

        "A length filter for video search."
        enum VideoDuration {
          "Any length."
          ANY
          "Shorter than 4 minutes."
          SHORT
          "Between 4 and 20 minutes."
          MEDIUM
          "Longer than 20 minutes."
          LONG
        }

        "A performing artist as one catalog knows it."
        type Artist implements Node {
          "Global id, e.g. `itunes:artist:136975`."
          id: ID!
          "The artist's name."
          name: String!
          "Primary genre, e.g. `Rock`; null when the catalog gives none."
          genre: String
          "The artist's page on the catalog's store or site."
          url: String
          "The artist's albums, in the catalog's order."
          albums("How many albums to return at most (1–200); all of them when absent." first: Int): [Album!]
            @cost(weight: 1)
            @listSize(assumedSize: 25, slicingArguments: ["first"], requireOneSlicingArgument: false)
        }

        "An album (a collection of tracks) as one catalog knows it."
        type Album implements Node {
          "Global id, e.g. `itunes:album:1440857781`."
          id: ID!
          "The album's title."
          title: String!
          "The album's artist; null when the catalog does not link one."
          artist: Artist @cost(weight: 1)
          "The album artist's name as the catalog writes it."
          artistName: String!
          "A square cover image URL of `size` × `size` pixels; null when there is none."
          artworkUrl("Edge length in pixels." size: Int = 100): String
          "Release date as precise as the catalog is: `2014-12-03`, `2014-12` or `2014`."
          releaseDate: String
          "Primary genre; null when the catalog gives none."
          genre: String
          "How many tracks the catalog says the album has (may exceed `tracks`)."
          trackCount: Int
          "The copyright line; null when the catalog does not send one."
          copyright: String
          "The album's tracks in the catalog's order (disc by disc)."
          tracks: [Track!] @cost(weight: 1) @listSize(assumedSize: 15)
          "The catalog this album comes from."
          source: CatalogSource!
        }

        "One track of an album."
        type Track implements Node {
          "Global id, e.g. `itunes:track:1440857893`."
          id: ID!
          "The track's title."
          title: String!
          "1-based position on its disc."
          trackNumber: Int
          "1-based disc number."
          discNumber: Int
          "Length in milliseconds; null when unknown."
          durationMs: Int
          "A short audio preview URL; null when there is none."
          previewUrl: String
          "The album this track belongs to; null when the catalog does not link one."
          album: Album @cost(weight: 1)
          "The performing artist's name."
          artistName: String
          "Videos of this track: a search for its artist and title."
          videos(
            "How many videos to return at most (1–50)."
            first: Int = 3
            "Where to look for videos."
            source: VideoSource = YOUTUBE
          ): [Video!]
            @cost(weight: 100)
            @costWhen(argument: "source", value: "ITUNES", weight: 1)
            @listSize(slicingArguments: ["first"])
        }

        "A video: a YouTube video, an iTunes music video or a movie's trailer or clip."
        type Video implements Node {
          "Global id, e.g. `youtube:video:dQw4w9WgXcQ`."
          id: ID!
          "The video's title, as plain text."
          title: String!
          "The YouTube channel, or the artist of an iTunes music video."
          channelTitle: String
          "The video's description, as plain text."
          description: String
          "A thumbnail image URL."
          thumbnailUrl: String
          "Where to watch the video."
          url: String
          "When the video was published, as an RFC 3339 timestamp."
          publishedAt: String
        }

        "A movie from TMDB."
        type Movie implements Node
          @http(
            upstream: "tmdb"
            path: "/3/movie/{$args.id}"
            query: [{ name: "language", value: "en-US" }]
            transform: "tmdb.movie"
          ) {
          "Global id, e.g. `tmdb:movie:550`."
          id: ID!
          "The movie's title."
          title: String!
          "The title in the original language, any script."
          originalTitle: String
          "A short plot summary."
          overview: String
          "A poster image URL at TMDB image size `size`; null when there is none."
          posterUrl("A TMDB poster size: `w92`, `w154`, `w185`, `w342`, `w500`, `w780` or `original`." size: String = "w500"): String
          "Release date, `YYYY-MM-DD`."
          releaseDate: String
          "Average vote, 0–10."
          voteAverage: Float
          "Number of votes; null when the upstream does not send it."
          voteCount: Int
          "The movie's trailers, teasers and clips."
          videos("How many videos to return at most (1–50)." first: Int = 3): [Video!]
            @cost(weight: 1)
            @listSize(slicingArguments: ["first"])
            @http(
              upstream: "tmdb"
              path: "/3/movie/{$parent.id}/videos"
              query: [{ name: "language", value: "en-US" }]
              transform: "tmdb.movieVideos"
              pageSize: 50
            )
        }

        """#
}
