import Catalog
import Foundation
import GraphQLHTTP
import HTTPTypes
import UpstreamEconomy

/// `serve`'s options for who its clients are and what each may spend: the clients file, the
/// proxies whose `X-Forwarded-For` is believed, the anonymous rate, and the shares of each
/// provider's day.
enum ClientOptions {
    static let names: Set<String> = [
        "--clients", "--trusted-proxies", "--anonymous-rate", "--client-share", "--anonymous-share",
        "--anonymous-pool",
    ]

    static let help = """
          --clients FILE         the clients: a line each, NAME KEY [rate=N/s] [burst=N] [share=P% or
                                 share=youtube:P%,tmdb:P%]; KEY is the key itself or sha256:HEX. A
                                 client sends its key as Authorization: Bearer KEY or X-API-Key: KEY;
                                 an unknown key is refused (401). Without a key a client is
                                 anonymous, known by its address
          --trusted-proxies LIST addresses or CIDR blocks (10.0.0.0/8,::1) whose X-Forwarded-For
                                 names the anonymous client's address (default: none)
          --anonymous-rate N/s   requests per second (or N/m per minute) each anonymous address may
                                 send; 429 beyond (default: no limit)
          --client-share P%      the share of each provider's day a client of the file may spend
                                 when its line gives none (default 50%)
          --anonymous-share P%   the share of each provider's day one anonymous address may spend
                                 (default 20%)
          --anonymous-pool P%    the share all anonymous clients together may spend (default 50%)
        """

    /// The clients file and proxies for the HTTP layer.
    /// - Throws: `CLIError` naming the file's line and entry, or the bad proxy or rate.
    static func policy(_ args: CommandLineArguments) throws(CLIError) -> ClientPolicy {
        let clients = try clientsFile(args) ?? ClientsFile(entries: [])
        var proxies: [ClientAddressRange] = []
        if args.lacksValue("--trusted-proxies") {
            throw CLIError("--trusted-proxies needs a list of addresses or CIDR blocks, e.g. 10.0.0.0/8,::1")
        }
        if let list = try args.value("--trusted-proxies") {
            for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let range = ClientAddressRange(parsing: item.trimmingCharacters(in: .whitespaces)) else {
                    throw CLIError("--trusted-proxies: '\(item.prefix(80))' is not an address or a CIDR block")
                }
                proxies.append(range)
            }
        }
        var rate: RateLimit?
        if args.lacksValue("--anonymous-rate") { throw CLIError("--anonymous-rate needs N/s or N/m, e.g. 10/s") }
        if let text = try args.value("--anonymous-rate") {
            guard let parsed = RateLimit(parsing: text) else {
                throw CLIError("--anonymous-rate: '\(text.prefix(80))' is not N/s or N/m with N from 1 to 1000000")
            }
            rate = parsed
        }
        return ClientPolicy(clients: clients, trustedProxies: proxies, anonymousRate: rate)
    }

    /// The shares of each provider's day, from the options and the clients file's `share=`.
    /// - Throws: `CLIError` for a share that is not a percentage, or names no provider.
    static func quotaShares(_ args: CommandLineArguments) throws(CLIError) -> QuotaShares {
        var shares = QuotaShares()
        for (name, apply) in [
            ("--client-share", { (s: inout QuotaShares, f: Double) in s.keyedShare = f }),
            ("--anonymous-share", { (s: inout QuotaShares, f: Double) in s.anonymousShare = f }),
            ("--anonymous-pool", { (s: inout QuotaShares, f: Double) in s.anonymousPool = f }),
        ] {
            if args.lacksValue(name) { throw CLIError("\(name) needs a percentage, e.g. 20%") }
            guard let text = try args.value(name) else { continue }
            guard let fraction = ClientsFile.fraction(text[...]) else {
                throw CLIError("\(name): '\(text.prefix(80))' is not a percentage from 0% to 100%")
            }
            apply(&shares, fraction)
        }
        guard let clients = try clientsFile(args) else { return shares }
        for entry in clients.entries where !entry.shares.isEmpty {
            var byService: [UpstreamService: Double] = [:]
            for (upstream, fraction) in entry.shares.sorted(by: { $0.key < $1.key }) {
                if upstream == "*" {
                    for service in UpstreamService.builtIn where byService[service] == nil {
                        byService[service] = fraction
                    }
                    continue
                }
                guard let service = UpstreamService(builtIn: upstream) else {
                    let known = UpstreamService.builtIn.map(\.rawValue).joined(separator: ", ")
                    throw CLIError(
                        "--clients: \(args.options["--clients"] ?? ""), line \(entry.line) (client '\(entry.name)'): "
                            + "share names '\(upstream.prefix(40))', not one of \(known)")
                }
                byService[service] = fraction
            }
            // A provider named on its own wins over `P%` for every provider.
            for (upstream, fraction) in entry.shares {
                if let service = UpstreamService(builtIn: upstream) { byService[service] = fraction }
            }
            shares.keyed[entry.name] = byService
        }
        return shares
    }

    private static func clientsFile(_ args: CommandLineArguments) throws(CLIError) -> ClientsFile? {
        if args.lacksValue("--clients") { throw CLIError("--clients needs the path of a clients file") }
        guard let path = try args.value("--clients") else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CLIError("--clients: cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try ClientsFile.parse(text, path: path)
        } catch {
            throw CLIError("--clients: \(error)")
        }
    }
}
