import SlateCore
import SlateWeb

/// Where `slate run` serves the rig's page, the other host names it answers
/// to, the token its API asks for, and the browsers paired with it.
public struct PageSettings: Sendable {
    public var listen: HTTPListen
    /// The profile's `http.hosts`.
    public var hosts: [String]
    public var token: String
    /// The file the token was read from, which messages name.
    public var tokenPath: String
    /// Where browsers pair; nil: only the token lets a client act.
    public var pairing: PairingStore?

    public init(listen: HTTPListen, hosts: [String] = [], token: String, tokenPath: String, pairing: PairingStore? = nil) {
        self.listen = listen
        self.hosts = hosts
        self.token = token
        self.tokenPath = tokenPath
        self.pairing = pairing
    }
}
