/// Which emulated API a path belongs to, by its real path prefix.
enum DemoService: String, Sendable {
    case iTunes = "itunes"
    case appleMusic = "applemusic"
    case rakuten
    case youTube = "youtube"
    case tmdb
    case unknown

    init(path: String) {
        if path == "/search" || path == "/lookup" {
            self = .iTunes
        } else if path.hasPrefix("/v1/") {
            self = .appleMusic
        } else if path.hasPrefix("/services/api/") {
            self = .rakuten
        } else if path.hasPrefix("/youtube/") {
            self = .youTube
        } else if path.hasPrefix("/3/") {
            self = .tmdb
        } else {
            self = .unknown
        }
    }

    /// The body this service sends with an error `status` (for injected faults): iTunes an
    /// empty body, Apple Music `errors[]` (empty on 401), Rakuten `error`/`error_description`,
    /// YouTube the Google envelope (403 = `quotaExceeded`, 400 = legacy `keyInvalid`), TMDB
    /// `status_code`/`status_message`.
    func errorResponse(status: Int) -> DemoResponse {
        switch self {
        case .iTunes, .unknown:
            return DemoResponse(status: status, headers: ["Content-Type": ITunesRoutes.contentType], body: [])
        case .appleMusic:
            if status == 401 {
                return DemoResponse(status: 401, headers: ["Content-Type": AppleMusicRoutes.contentType], body: [])
            }
            let (title, code): (String, String) =
                switch status {
                case 400: ("Invalid Parameter Value", "40005")
                case 403: ("Forbidden", "40300")
                case 404: ("Resource Not Found", "40400")
                case 429: ("Too Many Requests", "42900")
                case 503: ("Service Unavailable", "50300")
                default: ("Internal Server Error", "50000")
                }
            return DemoResponse.json(
                status, AppleMusicRoutes.errorBody(status, title, "Injected fault", code: code, seed: "fault\(status)"),
                contentType: AppleMusicRoutes.contentType)
        case .rakuten:
            let (error, description): (String, String) =
                switch status {
                case 400: ("wrong_parameter", "specify valid applicationId")
                case 404: ("not_found", "not found")
                case 429:
                    (
                        "too_many_requests",
                        "number of allowed requests has been exceeded for this API. please try again soon."
                    )
                case 503: ("service_unavailable", "XXX/XXX is in maintenance")
                default: ("system_error", "api logic error")
                }
            return RakutenRoutes.error(status, error, description)
        case .youTube:
            switch status {
            case 400: return YouTubeRoutes.error(400, "Bad Request", reason: "keyInvalid", domain: "usageLimits")
            case 403:
                return YouTubeRoutes.error(
                    403,
                    "The request cannot be completed because you have exceeded your <a href=\"/youtube/v3/getting-started#quota\">quota</a>.",
                    reason: "quotaExceeded", domain: "youtube.quota")
            case 429:
                return YouTubeRoutes.error(
                    429, "Rate limit exceeded", reason: "rateLimitExceeded", domain: "youtube.quota")
            default:
                return YouTubeRoutes.error(
                    status, "The service is currently unavailable.", reason: "backendError", domain: "global")
            }
        case .tmdb:
            switch status {
            case 401: return TMDBRoutes.error(401, 7, "Invalid API key: You must be granted a valid key.")
            case 404: return TMDBRoutes.error(404, 34, "The resource you requested could not be found.")
            case 429: return TMDBRoutes.error(429, 25, "Your request count (41) is over the allowed limit of (40).")
            case 400:
                return TMDBRoutes.error(
                    400, 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.")
            case 503:
                return TMDBRoutes.error(
                    503, 9, "Service offline: This service is temporarily offline, try again later.")
            default: return TMDBRoutes.error(status, 11, "Internal error: Something went wrong, contact TMDb.")
            }
        }
    }
}
