/// The tool's version, recorded in every run and printed by `--version`.
public enum ToolVersion {
  public static let current = "0.1.0"
}
