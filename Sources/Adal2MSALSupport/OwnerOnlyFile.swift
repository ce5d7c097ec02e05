import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who may read a file that holds secrets (a store, its side files, a key file): the files this tool writes
/// must be its user's alone.
package enum OwnerOnlyFile {
  /// The owner and permission bits of an existing file (after following links), or nil when it is missing.
  package struct Status: Sendable, Hashable {
    package var owner: UInt32
    package var mode: UInt16

    /// Whether the file's owner is the user this process runs as.
    package var isOwnedByCurrentUser: Bool { owner == UInt32(geteuid()) }
    /// Whether the group or others have any permission on it.
    package var isOpenToOthers: Bool { mode & 0o077 != 0 }
    /// `0644` and who may read it, for messages.
    package var modeDescription: String {
      var readers: [String] = []
      if mode & 0o040 != 0 { readers.append("its group") }
      if mode & 0o004 != 0 { readers.append("all users") }
      let who = readers.isEmpty ? "open to others" : "readable by " + readers.joined(separator: " and ")
      return "mode " + String(format: "%04o", mode) + ", " + who
    }
  }

  package static func status(_ path: String) -> Status? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Status(owner: UInt32(info.st_uid), mode: UInt16(info.st_mode & 0o7777))
  }

  /// What an existing path is when it is not a regular file (after following links), such as "a directory" or
  /// "a character device"; nil for a regular or missing file.
  package static func nonRegularKind(_ path: String) -> String? { FileIdentity.nonRegularKind(path) }

  /// Sets the mode of an existing file to 0600. Returns false (with `errno` set) when it cannot.
  package static func tighten(_ path: String) -> Bool { chmod(path, 0o600) == 0 }
}
