import Foundation
import SlateCore
import SlateNetwork
import Testing

/// obs-websocket's messages and authentication string, checked against its protocol document.
struct OBSMessageTests {
    /// The challenge and salt of protocol.md's Hello example, with its password
    /// `supersecretpassword`. The expected string was computed apart from Slate:
    ///     python3 -c "import hashlib, base64
    ///     h = lambda s: base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()
    ///     print(h(h('supersecretpassword' + 'lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI=')
    ///           + '+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY='))"
    @Test func theAuthenticationStringIsTheDocumentedDoubleHash() {
        let response = OBSAuthentication.response(
            password: "supersecretpassword", salt: "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI=",
            challenge: "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=")
        #expect(response == "1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4=")
        let other = OBSAuthentication.response(
            password: "supersecretpassword!", salt: "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI=",
            challenge: "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=")
        #expect(other != response)
    }

    @Test func theDocumentedHelloIsRead() throws {
        let hello = try OBSMessage(
            json: """
                {"op": 0, "d": {"obsWebSocketVersion": "5.0.0", "rpcVersion": 1, "authentication": {
                  "challenge": "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=",
                  "salt": "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI="}}}
                """)
        #expect(
            hello
                == .hello(
                    .init(
                        obsWebSocketVersion: "5.0.0", rpcVersion: 1,
                        authentication: .init(
                            challenge: "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=",
                            salt: "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI="))))
        let open = try OBSMessage(json: #"{"op": 0, "d": {"obsWebSocketVersion": "5.0.0", "rpcVersion": 1}}"#)
        #expect(open == .hello(.init(obsWebSocketVersion: "5.0.0", rpcVersion: 1, authentication: nil)))
    }

    @Test func theDocumentedResponsesAreRead() throws {
        let failure = try OBSMessage(
            json: """
                {"op": 7, "d": {"requestType": "SetCurrentScene", "requestId": "f819dcf0-89cc-11eb-8f0e-382c4ac93b9c",
                  "requestStatus": {"result": false, "code": 608, "comment": "Parameter: sceneName"}}}
                """)
        #expect(
            failure
                == .requestResponse(
                    .init(
                        requestType: "SetCurrentScene", requestId: "f819dcf0-89cc-11eb-8f0e-382c4ac93b9c",
                        requestStatus: .init(result: false, code: 608, comment: "Parameter: sceneName"))))
        let stopped = try OBSMessage(
            json: """
                {"op": 7, "d": {"requestType": "StopRecord", "requestId": "a", "requestStatus": {"result": true, "code": 100},
                  "responseData": {"outputPath": "/home/rig/Videos/2026-11-24 10-00-00.mkv"}}}
                """)
        guard case .requestResponse(let response) = stopped else {
            Issue.record("\(stopped)")
            return
        }
        #expect(response.responseData?["outputPath"] == .string("/home/rig/Videos/2026-11-24 10-00-00.mkv"))
        #expect(
            try OBSMessage(json: #"{"op": 5, "d": {"eventType": "StudioModeStateChanged", "eventIntent": 1}}"#) == .other(op: 5))
    }

    @Test func malformedMessagesThrow() {
        for text in ["", "not json", #"{"d": {}}"#, #"{"op": 0}"#, #"{"op": 7, "d": {"requestType": "StartRecord"}}"#, "[1, 2]"] {
            #expect(throws: (any Error).self, "\(text)") { try OBSMessage(json: text) }
        }
    }

    /// Encoded messages, read back as plain JSON objects.
    func object(_ message: OBSMessage) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(message.json().utf8)) as? [String: Any])
    }

    @Test func identifyCarriesTheAuthenticationOnlyWhenThereIsOne() throws {
        let with = try object(.identify(.init(authentication: "1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4=")))
        #expect(with["op"] as? Int == 1)
        let data = try #require(with["d"] as? [String: Any])
        #expect(data["rpcVersion"] as? Int == 1)
        #expect(data["eventSubscriptions"] as? Int == 0)
        #expect(data["authentication"] as? String == "1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4=")
        let without = try #require(try object(.identify(.init()))["d"] as? [String: Any])
        #expect(without["authentication"] == nil)
        #expect(Set(without.keys) == ["rpcVersion", "eventSubscriptions"])
    }

    @Test func aRequestCarriesItsDataAsJSON() throws {
        let chapter = try JSONValue(
            parsing: #"{"chapterName": "Take 3 \"wide\"", "n": 2, "x": 1.5, "on": true, "none": null, "list": []}"#)
        let request = try object(.request(.init(requestType: "CreateRecordChapter", requestId: "r1", requestData: chapter)))
        #expect(request["op"] as? Int == 6)
        let data = try #require(request["d"] as? [String: Any])
        #expect(data["requestType"] as? String == "CreateRecordChapter")
        #expect(data["requestId"] as? String == "r1")
        let fields = try #require(data["requestData"] as? [String: Any])
        #expect(fields["chapterName"] as? String == #"Take 3 "wide""#)
        #expect(fields["n"] as? Int == 2)
        #expect(fields["x"] as? Double == 1.5)
        #expect(fields["on"] as? Bool == true)
        #expect(fields["none"] is NSNull)
        #expect((fields["list"] as? [Any])?.isEmpty == true)
        let bare = try #require(try object(.request(.init(requestType: "StartRecord", requestId: "r2")))["d"] as? [String: Any])
        #expect(bare["requestData"] == nil)
    }

    @Test func jsonValuesKeepTheirKinds() throws {
        let value = try JSONValue(parsing: #"{"a": [1, 2.5, "x", false, null, {"b": {}}]}"#)
        #expect(
            value
                == .object([
                    "a": .array([.integer(1), .number(2.5), .string("x"), .bool(false), .null, .object(["b": .object([:])])])
                ]))
        #expect(throws: (any Error).self) { try JSONValue(parsing: "{chapterName: x}") }
    }
}
