import Logging
import SlateCore

/// Slate's log on standard error, each message's text made safe for a
/// terminal (`TerminalText`): a log line that quotes a broker's or OBS's
/// words cannot clear or retitle the operator's terminal.
public struct TerminalLogHandler: LogHandler {
    private var stream: StreamLogHandler

    public init(label: String, level: Logger.Level = .info) {
        stream = StreamLogHandler.standardError(label: label)
        stream.logLevel = level
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: TerminalText.safe(event.message.description))
        stream.log(event: event)
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    public var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }
}
