/// Slate's version, as `slate --version` prints it.
public enum SlateVersion {
    public static let current = "0.1.0"
}
