/// A block of addresses in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`, or one address, a
/// block of one): the proxies whose `X-Forwarded-For` a server believes.
public struct ClientAddressRange: Hashable, Sendable, CustomStringConvertible {
    private let network: ClientAddress
    /// Leading bits that must match, counted over the 128 bits of the IPv6 form (an IPv4 `/8`
    /// is 96 + 8).
    private let prefixLength: Int
    public let description: String

    /// The block `text` names; nil for anything else (a prefix length past the family's bits, a
    /// host part that is not an address).
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = ClientAddress(parsing: parts[0]) else { return nil }
        let familyBits = address.isIPv4 ? 32 : 128
        var length = familyBits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...familyBits).contains(given), parts[1].allSatisfy(\.isASCII) else {
                return nil
            }
            length = given
        }
        self.network = address
        self.prefixLength = (address.isIPv4 ? 96 : 0) + length
        self.description = String(text)
    }

    /// Whether `address` is in the block.
    public func contains(_ address: ClientAddress) -> Bool {
        let (a, b) = (address.bytes, network.bytes)
        var bits = prefixLength
        for index in 0..<16 where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            guard a[index] & mask == b[index] & mask else { return false }
            bits -= 8
        }
        return true
    }
}
