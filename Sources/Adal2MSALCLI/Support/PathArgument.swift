import ArgumentParser

/// A path given on the command line. An empty one (`--out "$STORE"` with the variable unset) is a usage error:
/// read as a path, it names no file, or the current directory, and would fail later with an empty name in its
/// message.
enum PathArgument {
  /// The value as given, unless it is empty (for an option's or an argument's `transform`).
  @Sendable static func nonEmpty(_ value: String) throws -> String {
    guard !value.isEmpty else { throw ValidationError("the path is empty") }
    return value
  }
}
