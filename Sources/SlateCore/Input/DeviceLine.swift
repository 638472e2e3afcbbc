/// `slate devices --json`: one input event node, its identity and udev
/// properties, and with a profile the input it is or why it is none.
public struct DeviceLine: Codable, Hashable, Sendable {
    public var path: String
    public var name: String
    public var bus: String
    public var vendor: String
    public var product: String
    public var version: String
    public var phys: String
    public var uniq: String
    /// The device the node belongs to (udev's parent), shared by its other nodes.
    public var group: String
    public var readable: Bool
    /// Why the node could not be opened.
    public var error: String?
    /// What gives this user a node it may not open (`DeviceAccess`).
    public var access: String?
    public var codes: [String]
    public var udev: [String: String]
    /// What the profile makes of the device; nil without a profile.
    public var profile: ProfileMatch?

    /// How a profile binds a device: `input` (null when none matches), why each
    /// other input does not match, whether grabbing it takes a uinput clone,
    /// and why that clone cannot be made.
    public struct ProfileMatch: Codable, Hashable, Sendable {
        public var input: String?
        public var mismatches: [String: [String]]
        public var clone: Bool
        public var warning: String?

        public init(input: String?, mismatches: [String: [String]], clone: Bool, warning: String?) {
            self.input = input
            self.mismatches = mismatches
            self.clone = clone
            self.warning = warning
        }

        private enum CodingKeys: String, CodingKey {
            case input, mismatches, clone, warning
        }

        /// `input` is written as null when no input matches.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encode(mismatches, forKey: .mismatches)
            try container.encode(clone, forKey: .clone)
            try container.encodeIfPresent(warning, forKey: .warning)
        }
    }

    public init(
        path: String, identity: DeviceIdentity, group: String, error: String?, access: String? = nil,
        udev: [String: String], profile: ProfileMatch?
    ) {
        self.path = path
        name = identity.name
        bus = Bus.name(of: identity.bus)
        vendor = Hex.id(identity.vendor)
        product = Hex.id(identity.product)
        version = Hex.id(identity.version)
        phys = identity.phys
        uniq = identity.uniq
        self.group = group
        readable = error == nil
        self.error = error
        self.access = access
        codes = identity.codes.sorted { ($0.type, $0.code) < ($1.type, $1.code) }.map(\.name)
        self.udev = udev
        self.profile = profile
    }

    private enum CodingKeys: String, CodingKey {
        case path, name, bus, vendor, product, version, phys, uniq, group, readable, error, access, codes, udev, mismatches
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        name = try container.decode(String.self, forKey: .name)
        bus = try container.decode(String.self, forKey: .bus)
        vendor = try container.decode(String.self, forKey: .vendor)
        product = try container.decode(String.self, forKey: .product)
        version = try container.decode(String.self, forKey: .version)
        phys = try container.decode(String.self, forKey: .phys)
        uniq = try container.decode(String.self, forKey: .uniq)
        group = try container.decode(String.self, forKey: .group)
        readable = try container.decode(Bool.self, forKey: .readable)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        access = try container.decodeIfPresent(String.self, forKey: .access)
        codes = try container.decode([String].self, forKey: .codes)
        udev = try container.decode([String: String].self, forKey: .udev)
        profile = container.contains(.mismatches) ? try ProfileMatch(from: decoder) : nil
    }

    /// The profile's fields, when there is a profile, in the same object as the device's.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(name, forKey: .name)
        try container.encode(bus, forKey: .bus)
        try container.encode(vendor, forKey: .vendor)
        try container.encode(product, forKey: .product)
        try container.encode(version, forKey: .version)
        try container.encode(phys, forKey: .phys)
        try container.encode(uniq, forKey: .uniq)
        try container.encode(group, forKey: .group)
        try container.encode(readable, forKey: .readable)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(access, forKey: .access)
        try container.encode(codes, forKey: .codes)
        try container.encode(udev, forKey: .udev)
        try profile?.encode(to: encoder)
    }
}
