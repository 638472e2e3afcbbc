import CBluetooth

/// The headset's AVCTP control channel to the rig: an L2CAP socket from the
/// headset's controller to PSM 23 of the rig's, at security level medium, so
/// the kernel pairs the two (Just Works) before the channel opens.
final class AVCTPLink {
    static let controlPSM: UInt16 = 23
    /// How long an answer is waited for.
    static let answerTimeout: Int32 = 1000

    private let fd: Int32
    private var label: UInt8 = 0

    /// Connects; blocks while the controllers connect and pair. As a headset
    /// does, it first opens the rig's SDP server (PSM 1), which brings the link
    /// up and pairs; AVCTP opened before bluetoothd has taken the new device
    /// in is refused, so a refusal is tried again a few times.
    init(from adapter: bdaddr_t, to rig: bdaddr_t) throws(HeadsetError) {
        let sdp = try Self.channel(from: adapter, to: rig, psm: 1)
        defer { close(sdp) }
        var attempt = 0
        while true {
            do {
                fd = try Self.channel(from: adapter, to: rig, psm: Self.controlPSM)
                return
            } catch  where error.code == ECONNREFUSED && attempt < Self.attempts {
                attempt += 1
                var pause = timespec(tv_sec: 0, tv_nsec: 200_000_000)
                nanosleep(&pause, nil)
            }
        }
    }

    /// Times a refused AVCTP connection is tried again.
    static let attempts = 10

    /// An L2CAP channel from `adapter` to `psm` of `rig`, at security level medium.
    private static func channel(from adapter: bdaddr_t, to rig: bdaddr_t, psm: UInt16) throws(HeadsetError) -> Int32 {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw HeadsetError("socket(AF_BLUETOOTH, L2CAP)", errno: slate_headset_errno()) }
        func failure(_ what: String) -> HeadsetError {
            let error = HeadsetError(what, errno: slate_headset_errno())
            close(fd)
            return error
        }
        var local = sockaddr_l2()
        local.l2_family = sa_family_t(AF_BLUETOOTH)
        local.l2_bdaddr = adapter
        guard call(fd, local, bind) == 0 else { throw failure("bind to the headset's controller") }
        var security = bt_security(level: UInt8(BT_SECURITY_MEDIUM), key_size: 0)
        guard setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size)) == 0 else {
            throw failure("ask for security level medium")
        }
        var remote = sockaddr_l2()
        remote.l2_family = sa_family_t(AF_BLUETOOTH)
        remote.l2_psm = psm.littleEndian
        remote.l2_bdaddr = rig
        guard call(fd, remote, connect) == 0 else { throw failure("connect L2CAP PSM \(psm)") }
        return fd
    }

    deinit { close(fd) }

    private static func call(
        _ fd: Int32, _ address: sockaddr_l2, _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32
    ) -> Int32 {
        var address = address
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { function(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
    }

    /// Sends `operation` pressed or released, and returns the rig's answer
    /// (`accepted`, ...), or nil when none came in time.
    func send(_ operation: UInt8, released: Bool) throws(HeadsetError) -> String? {
        label = (label + 1) & 0x0F
        let packet = PassThrough.command(operation, released: released, label: label)
        guard packet.withUnsafeBytes({ CBluetooth.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == packet.count
        else {
            throw HeadsetError("send a PASS THROUGH command", errno: slate_headset_errno())
        }
        var deadline = Self.answerTimeout
        while deadline > 0 {
            let started = Self.milliseconds()
            guard let received = try receive(timeout: deadline) else { return nil }
            if let answer = PassThrough.answer(received, label: label) { return answer }
            deadline -= Int32(Self.milliseconds() - started)
        }
        return nil
    }

    /// One packet, or nil when none came within `timeout` ms. A command the
    /// rig sends (bluetoothd asks a controller for its capabilities) is
    /// answered NOT IMPLEMENTED, as a plain headset answers it.
    private func receive(timeout: Int32) throws(HeadsetError) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeout)
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw HeadsetError("the rig closed AVCTP", errno: count == 0 ? 0 : slate_headset_errno()) }
        let packet = Array(buffer[0..<count])
        if packet.count >= 4, packet[0] & 0x02 == 0 {
            var answer = packet
            answer[0] |= 0x02
            answer[3] = 0x08
            _ = answer.withUnsafeBytes { CBluetooth.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        return packet
    }

    /// Reads and answers what the rig sends for `milliseconds`.
    func listen(milliseconds: Int32) throws(HeadsetError) {
        let end = Self.milliseconds() + Int64(milliseconds)
        while case let left = end - Self.milliseconds(), left > 0 { _ = try receive(timeout: Int32(left)) }
    }

    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// Something the headset could not do.
struct HeadsetError: Error, CustomStringConvertible {
    var description: String
    /// The errno it came with; 0 for none.
    var code: Int32 = 0

    init(_ what: String, errno code: Int32) {
        description = code == 0 ? what : "\(what): \(String(cString: strerror(code)))"
        self.code = code
    }

    init(_ description: String) { self.description = description }
}
