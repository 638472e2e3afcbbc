import Hummingbird
import NIOCore

/// A request's context on the page: Hummingbird's, and the client's address
/// (which a paired browser's record keeps).
struct PageContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
