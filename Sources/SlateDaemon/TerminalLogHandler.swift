import Logging
import SlateCore
import SlateSystem
import Synchronization
import SystemPackage

/// Slate's log on standard error, each message's text made safe for a
/// terminal (`TerminalText`): a log line that quotes a broker's or OBS's
/// words cannot clear or retitle the operator's terminal.
///
/// When standard error is the journal (`ServiceManager.journalIsStandardError`)
/// a line is `<N>label: [source] message`: its priority for journald (errors
/// 3, warnings 4, notices 5, info 6, debug 7), and no time of its own, which
/// the journal gives. On a terminal a line is swift-log's, starting by
/// clearing the line it is written on (where `slate record` draws its
/// progress), its level coloured when the terminal takes colour
/// (`Terminal.takesColor`): errors red, warnings magenta, debug and trace faint.
public struct TerminalLogHandler: LogHandler {
    /// Where the lines go.
    public enum Destination: Sendable, Equatable {
        /// A file or a pipe: swift-log's lines as they are.
        case plain
        /// The journal (`JOURNAL_STREAM`).
        case journal
        /// A terminal, coloured or not.
        case terminal(color: Bool)
    }

    private var stream: StreamLogHandler
    private let destination: Destination
    private let label: String

    public init(label: String, level: Logger.Level = .info, destination: Destination = .plain) {
        stream = StreamLogHandler.standardError(label: label)
        stream.logLevel = level
        self.destination = destination
        self.label = label
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: TerminalText.safe(event.message.description))
        let fields = (stream.metadata.merging(event.metadata ?? [:]) { $1 }).sorted { $0.key < $1.key }
        let metadata = fields.isEmpty ? "" : " " + fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        switch destination {
        case .plain:
            stream.log(event: event)
        case .journal:
            WholeLines.write("<\(Self.priority(event.level))>\(label): [\(event.source)] \(event.message)\(metadata)\n")
        case .terminal(let color):
            let tint = color ? Self.tint(event.level) : nil
            let level = tint.map { TerminalColor.paint("\(event.level)", $0) } ?? "\(event.level)"
            WholeLines.write(
                "\r\u{1B}[K\(Terminal.logTimestamp()) \(level) \(label):\(metadata) [\(event.source)] \(event.message)\n")
        }
    }

    /// The colour of a level's word; nil: the terminal's own.
    static func tint(_ level: Logger.Level) -> TerminalColor.Tint? {
        switch level {
        case .trace, .debug: .quiet
        case .info, .notice: nil
        case .warning: .warning
        case .error, .critical: .error
        }
    }

    /// syslog's priority for a level: what `journalctl -p` filters on.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
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

/// Log lines on standard error, whole: one write each, one writer at a time.
private enum WholeLines {
    static let lock = Mutex(())

    static func write(_ line: String) {
        lock.withLock { _ in OutputStream.writeRaw(line, fd: .standardError) }
    }
}
