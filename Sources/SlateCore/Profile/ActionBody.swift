/// The body of a request to run an action (`POST /actions`): `{"action": "take.toggle"}`.
public struct ActionBody: Decodable, Hashable, Sendable {
    public var action: String

    public init(action: String) { self.action = action }

    /// The request `body` holds, or why it holds none.
    public static func decode(_ body: [UInt8]) -> Result<ActionBody, ActionTextError> {
        do {
            return .success(try JSONLine.decode(ActionBody.self, from: body))
        } catch {
            let reason = (error as? DecodingError)?.plainText ?? "it is not JSON"
            return .failure(ActionTextError("the body must be JSON such as {\"action\": \"take.toggle\"}: \(reason)"))
        }
    }
}
