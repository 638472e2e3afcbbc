import Glibc

/// The rig's local time, by its time zone (`TZ`, or /etc/localtime).
public enum LocalTime {
    /// Microseconds since local midnight at `microseconds` since 1970.
    public static func microsecondsOfDay(_ microseconds: Int64) -> Int64 {
        let day = Int64(86_400_000_000)
        let local = microseconds + zoneOffset(at: microseconds)
        return ((local % day) + day) % day
    }

    /// How far ahead of UTC the local time is at `microseconds` since 1970 (summer time included), in microseconds.
    public static func zoneOffset(at microseconds: Int64) -> Int64 {
        var moment = time_t(microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000)
        var parts = tm()
        // The zone is read again, so a rig whose zone was changed (timedatectl) follows it.
        tzset()
        localtime_r(&moment, &parts)
        return Int64(parts.tm_gmtoff) * 1_000_000
    }
}

/// This machine's name (`gethostname`), which names the rig where its profile does not.
public enum HostName {
    public static var current: String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "rig" }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "rig" : text
    }
}
