/// How many descriptors this process may have open: RLIMIT_NOFILE's soft
/// limit, which systemd starts services with at 1024 and lets them raise to
/// the hard limit.
public enum DescriptorLimit {
    /// The soft limit now; nil when it cannot be read.
    public static var current: Int? { try? Syscall.descriptorLimits().get().soft }

    /// Raises the soft limit to `goal`, or to the hard limit when that is
    /// lower (it never lowers it), and returns the soft limit in force.
    /// Children inherit it: a modest goal keeps programs that walk every
    /// descriptor up to the limit, or that use select(), as they were.
    @discardableResult
    public static func raise(toward goal: Int) -> Int? {
        guard let (soft, hard) = try? Syscall.descriptorLimits().get() else { return nil }
        let wanted = min(goal, hard)
        guard wanted > soft else { return soft }
        return (try? Syscall.setDescriptorLimit(soft: wanted).get()) != nil ? wanted : soft
    }
}
