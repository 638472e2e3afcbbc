import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 connection with a `ConnectionGuard` right after
/// SwiftNIO's request parser, where it sees each request's head as sent.
struct PageChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    let budgets: PageBudgets
    let registry: ConnectionRegistry
    let address: BoundAddress
    let bodyLimits: BodyLimits
    let streamPaths: Set<String>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let (budgets, registry, address, bodyLimits, streamPaths) = (budgets, registry, address, bodyLimits, streamPaths)
        return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let parser = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                ConnectionGuard(
                    budgets: budgets, registry: registry, address: address, bodyLimits: bodyLimits, streamPaths: streamPaths),
                position: .after(parser))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}
