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
/// the journal gives.
public struct TerminalLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private let journal: Bool
    private let label: String

    public init(label: String, level: Logger.Level = .info, journal: Bool = false) {
        stream = StreamLogHandler.standardError(label: label)
        stream.logLevel = level
        self.journal = journal
        self.label = label
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: TerminalText.safe(event.message.description))
        guard journal else {
            stream.log(event: event)
            return
        }
        let fields = (stream.metadata.merging(event.metadata ?? [:]) { $1 }).sorted { $0.key < $1.key }
        let metadata = fields.isEmpty ? "" : " " + fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        JournalLines.write("<\(Self.priority(event.level))>\(label): [\(event.source)] \(event.message)\(metadata)\n")
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

/// Lines to the journal, whole: one write each, one writer at a time.
private enum JournalLines {
    static let lock = Mutex(())

    static func write(_ line: String) {
        lock.withLock { _ in OutputStream.writeRaw(line, fd: .standardError) }
    }
}
