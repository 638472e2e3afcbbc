import SlateCore

/// Where `slate run` serves the rig's page, the other host names it answers
/// to, and the token its API asks for.
public struct PageSettings: Sendable {
    public var listen: HTTPListen
    /// The profile's `http.hosts`.
    public var hosts: [String]
    public var token: String
    /// The file the token was read from, which messages name.
    public var tokenPath: String

    public init(listen: HTTPListen, hosts: [String] = [], token: String, tokenPath: String) {
        self.listen = listen
        self.hosts = hosts
        self.token = token
        self.tokenPath = tokenPath
    }

    /// The page's address.
    func url(_ address: HTTPListen) -> String { "http://\(address)/" }
}
