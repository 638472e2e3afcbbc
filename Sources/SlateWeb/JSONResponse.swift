import Hummingbird
import SlateCore

/// JSON responses, written as Slate writes its JSON lines.
enum JSONResponse {
    static func ok<Value: Encodable>(_ value: Value) -> Response {
        response(JSONLine.encode(value), status: .ok)
    }

    /// JSON already encoded.
    static func raw(_ json: String) -> Response { response(json, status: .ok) }

    /// `{"error": message}`.
    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        response(JSONLine.encode(["error": message]), status: status)
    }

    private static func response(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
