import CMosquitto
import Synchronization

/// One connection to an MQTT broker through libmosquitto. libmosquitto's own
/// network thread connects, reconnects with backoff after a loss, keeps the
/// connection alive and delivers what arrives; `onEvent` is called on that
/// thread and must only hand the event on (to a mailbox). Publishing and
/// subscribing never wait for the network.
public final class MQTTLink: Sendable {
    /// Where and as whom to connect.
    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var username: String?
        public var password: String?
        /// A CA certificate file: the connection uses TLS, checked against it.
        public var caFile: String?
        /// TLS checked against the system's certificates (when there is no `caFile`).
        public var systemCertificates: Bool
        /// Seconds between keep-alive pings; a client silent for 1.5 times this is gone.
        public var keepAlive: Int
        /// Published by the broker for this client if it goes without saying goodbye.
        public var will: Message?
        /// The largest payload delivered: a larger message is reported
        /// `oversized` and its payload is never copied out of libmosquitto's.
        public var payloadLimit: Int

        public init(
            host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil,
            caFile: String? = nil, systemCertificates: Bool = false, keepAlive: Int = 10, will: Message? = nil,
            payloadLimit: Int = .max
        ) {
            self.payloadLimit = payloadLimit
            self.systemCertificates = systemCertificates
            self.host = host
            self.port = port
            self.clientID = clientID
            self.username = username
            self.password = password
            self.caFile = caFile
            self.keepAlive = keepAlive
            self.will = will
        }
    }

    /// A message, to publish or received.
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int32
        public var retain: Bool

        public init(topic: String, payload: [UInt8], qos: Int32 = 0, retain: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

    /// What happened on the connection.
    public enum Event: Sendable, Equatable {
        case connected
        /// The broker refused the connection, or it was lost; libmosquitto tries again.
        case disconnected(String)
        case message(Message)
        /// A message over `payloadLimit` arrived on `topic`, `bytes` long: it was dropped.
        case oversized(topic: String, bytes: Int)
    }

    /// The libmosquitto client and the callback it calls, kept alive together.
    /// The handle is taken under its lock, and is nil once stopped, so a
    /// publish after `stop` fails instead of touching a freed client.
    private final class Client: Sendable {
        let handle: Mutex<OpaquePointer?>
        let onEvent: @Sendable (Event) -> Void
        let payloadLimit: Int
        /// The broker refused the connection: the disconnection that follows says nothing more.
        let refused = Mutex(false)

        init(handle: sending OpaquePointer, payloadLimit: Int, onEvent: @escaping @Sendable (Event) -> Void) {
            self.handle = Mutex(handle)
            self.payloadLimit = payloadLimit
            self.onEvent = onEvent
        }

        /// Calls libmosquitto with the handle; `MOSQ_ERR_NO_CONN` once stopped.
        func call(_ body: @Sendable (OpaquePointer) -> Int32) -> Int32 {
            handle.withLock { handle in handle.map(body) ?? MOSQ_ERR_NO_CONN.rawValue }
        }
    }

    private static let library: Void = { mosquitto_lib_init() }()

    private let client: Client
    /// The reference libmosquitto's callbacks find `client` through.
    private let context: Unmanaged<Client>

    /// Starts connecting to the broker in the background.
    public init(_ settings: Settings, onEvent: @escaping @Sendable (Event) -> Void) throws(MQTTError) {
        _ = Self.library
        guard let handle = mosquitto_new(settings.clientID, true, nil) else {
            throw MQTTError("create an MQTT client", code: MOSQ_ERR_NOMEM.rawValue)
        }
        let client = Client(handle: handle, payloadLimit: settings.payloadLimit, onEvent: onEvent)
        let context = Unmanaged.passRetained(client)
        do throws(MQTTError) {
            let connected = try client.handle.withLock { handle throws(MQTTError) -> Int32 in
                guard let handle else { return MOSQ_ERR_NO_CONN.rawValue }
                mosquitto_user_data_set(handle, context.toOpaque())
                try Self.configure(handle, settings)
                Self.setCallbacks(handle)
                try Self.check(mosquitto_reconnect_delay_set(handle, 1, 30, true), "set the reconnect delay")
                try Self.check(mosquitto_loop_start(handle), "start the MQTT network thread")
                return mosquitto_connect_async(handle, settings.host, Int32(settings.port), Int32(settings.keepAlive))
            }
            // A broker that cannot be reached now is tried again by the network thread.
            if connected != MOSQ_ERR_SUCCESS.rawValue && connected != MOSQ_ERR_ERRNO.rawValue {
                throw MQTTError("connect to \(settings.host):\(settings.port)", code: connected)
            }
            if connected == MOSQ_ERR_ERRNO.rawValue {
                onEvent(.disconnected("nothing answers at \(settings.host):\(settings.port) yet"))
            }
        } catch {
            Self.end(client, sayingGoodbye: false)
            context.release()
            throw error
        }
        self.client = client
        self.context = context
    }

    /// libmosquitto's callbacks, which find the client through its user data.
    private static func setCallbacks(_ handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { _, object, code in
            guard let client = object.map({ Unmanaged<Client>.fromOpaque($0).takeUnretainedValue() }) else { return }
            client.refused.withLock { $0 = code != 0 }
            client.onEvent(code == 0 ? .connected : .disconnected(String(cString: mosquitto_connack_string(code))))
        }
        mosquitto_disconnect_callback_set(handle) { _, object, code in
            guard let client = object.map({ Unmanaged<Client>.fromOpaque($0).takeUnretainedValue() }),
                !client.refused.withLock({ refused in
                    defer { refused = false }; return refused
                })
            else { return }
            client.onEvent(.disconnected(code == 0 ? "disconnected" : String(cString: mosquitto_strerror(code))))
        }
        mosquitto_message_callback_set(handle) { _, object, message in
            guard let client = object.map({ Unmanaged<Client>.fromOpaque($0).takeUnretainedValue() }),
                let message = message?.pointee
            else { return }
            guard Int(message.payloadlen) <= client.payloadLimit else {
                client.onEvent(.oversized(topic: String(cString: message.topic), bytes: Int(message.payloadlen)))
                return
            }
            let payload =
                message.payload.map {
                    Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)))
                } ?? []
            client.onEvent(
                .message(
                    Message(topic: String(cString: message.topic), payload: payload, qos: message.qos, retain: message.retain)))
        }
    }

    private static func configure(_ handle: OpaquePointer, _ settings: Settings) throws(MQTTError) {
        if settings.username != nil || settings.password != nil {
            try check(mosquitto_username_pw_set(handle, settings.username, settings.password), "set the MQTT user")
        }
        if let caFile = settings.caFile {
            try check(mosquitto_tls_set(handle, caFile, nil, nil, nil, nil), "use TLS with \(caFile)")
        } else if settings.systemCertificates {
            try check(mosquitto_tls_set(handle, nil, systemCertificates, nil, nil, nil), "use TLS with \(systemCertificates)")
        }
        if let will = settings.will {
            let code = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos, will.retain)
            }
            try check(code, "set the last will on \(will.topic)")
        }
    }

    /// Where Debian keeps the certificates the system trusts.
    private static let systemCertificates = "/etc/ssl/certs"

    private static func check(_ code: Int32, _ operation: String) throws(MQTTError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError(operation, code: code) }
    }

    deinit { stop(sayingGoodbye: true) }

    /// Queues `message`; it is sent once connected (QoS 1 and 2 are sent again
    /// after a reconnect until the broker has them).
    public func publish(_ message: Message) throws(MQTTError) {
        let code = client.call { handle in
            message.payload.withUnsafeBytes { bytes in
                mosquitto_publish(handle, nil, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos, message.retain)
            }
        }
        try Self.check(code, "publish on \(message.topic)")
    }

    /// Subscribes to `pattern` (with `+` and `#`); sent again on each reconnect by the caller.
    public func subscribe(_ pattern: String, qos: Int32 = 1) throws(MQTTError) {
        try Self.check(client.call { mosquitto_subscribe($0, nil, pattern, qos) }, "subscribe to \(pattern)")
    }

    /// Ends the connection and joins the network thread. With `sayingGoodbye`
    /// the broker is told (no last will); without it the connection just
    /// closes, as a killed process's would, and the broker publishes the will.
    public func stop(sayingGoodbye: Bool = true) {
        if Self.end(client, sayingGoodbye: sayingGoodbye) { context.release() }
    }

    /// Takes the client's handle (so nothing calls it again) and ends it;
    /// false when it was already ended. The network thread is joined outside
    /// the lock, so a callback that publishes cannot hold it up.
    @discardableResult
    private static func end(_ client: Client, sayingGoodbye: Bool) -> Bool {
        guard
            let handle = client.handle.withLock({ handle in
                defer { handle = nil }; return handle
            })
        else { return false }
        if sayingGoodbye { mosquitto_disconnect(handle) }
        mosquitto_loop_stop(handle, !sayingGoodbye)
        mosquitto_destroy(handle)
        return true
    }
}

/// An MQTT operation that failed, with libmosquitto's reason.
public struct MQTTError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var reason: String

    init(_ operation: String, code: Int32) {
        self.operation = operation
        reason = String(cString: mosquitto_strerror(code))
    }

    public init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    public var description: String { "cannot \(operation): \(reason)" }
}
