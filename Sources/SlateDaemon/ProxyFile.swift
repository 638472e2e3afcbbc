import SlateCore
import SlateMedia
import SlateSystem

/// A take's proxy file while the take records: opened with the take, written
/// beside it frame by frame (the same timestamps, the same sound), fragmented
/// at the take's keyframes (the proxy has no others), closed with it. A proxy
/// that cannot be written stops there, keeping its complete fragments; the
/// take goes on.
final class ProxyFile {
    private let writer: TakeWriter
    private let folder: Folder
    private let name: String
    /// The proxy's first packet, which must be a keyframe, is written.
    private var started = false

    /// The file, for messages.
    var path: String { writer.path }
    /// Frames in complete fragments, flushed to the file; all it was given once finished.
    var frames: Int { finished ? writer.packetCount : writer.complete.packets }
    private var finished = false

    /// Creates the proxy at `path` (`Proxy/NAME.mp4`) of the work folder.
    init(
        _ path: String, in folder: TakeFolder, proxy: ProxyEncoder, rotation: Int, sound: AudioStreamParameters?,
        stamp: TakeWriter.Stamp
    ) throws {
        let (proxyFolder, name, fd) = try folder.createProxy(path)
        self.folder = proxyFolder
        self.name = name
        writer = try TakeWriter(
            fd: fd, named: name, in: proxyFolder, parameters: proxy.parameters, rotation: rotation, sound: sound, stamp: stamp)
    }

    /// Writes the proxy's packet for the take's frame at `pts` (counted from
    /// the take's first frame); the proxy starts with a keyframe.
    func write(_ packet: EncodedPacket, pts: Int64) throws(MediaError) {
        guard started || packet.isKeyframe else { return }
        started = true
        var packet = packet
        packet.dts = pts - (packet.pts - packet.dts)
        packet.pts = pts
        try writer.write(packet)
    }

    /// Writes the take's sound packets (the same as the take's own).
    func writeSound(_ packets: [EncodedPacket]) throws(MediaError) {
        guard writer.sound != nil else { return }
        for packet in packets { try writer.writeSound(packet) }
    }

    /// Writes the last fragment and syncs the file.
    func finish() throws(MediaError) {
        try writer.finish()
        finished = true
    }

    /// Closes the file at its complete fragments.
    func abandon() { writer.abandon() }

    /// Closes the file and removes it.
    func remove() {
        writer.abandon()
        try? folder.remove(name)
    }
}
