import Crypto
import FoundationEssentials

/// The `authentication` string of an Identify, answering the challenge of a Hello:
/// secret = base64(sha256(password + salt)), then base64(sha256(secret + challenge)).
public enum OBSAuthentication {
    public static func response(password: String, salt: String, challenge: String) -> String {
        let secret = Data(SHA256.hash(data: Data((password + salt).utf8))).base64EncodedString()
        return Data(SHA256.hash(data: Data((secret + challenge).utf8))).base64EncodedString()
    }
}
