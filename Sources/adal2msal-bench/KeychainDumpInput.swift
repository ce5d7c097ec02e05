import Adal2MSAL
import ArgumentParser
import Foundation

/// A keychain dump of a user's own given to a benchmark with `--input`: an array of the keychain's dictionaries
/// saved as a binary or XML property list, with ADAL items in it. `compare`'s script loads it with `plistlib` and
/// walks that array, and `adal-read` writes its entries again in the four dump formats: a file of another form would
/// time a failure, and one without ADAL items two programs with nothing to do, whose ratios mean nothing.
enum KeychainDumpInput {
  /// Refuses such a file before anything runs, naming it and what adal2msal's own reader makes of it.
  static func check(_ path: String) throws {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ValidationError("--input \(path): no such file, or it cannot be read")
    }
    defer { try? handle.close() }
    // The opening bytes tell the two encodings apart, as adal2msal's own reader tells them.
    guard PropertyListFormat.sniff((try? handle.read(upToCount: 64)) ?? Data()) != nil else {
      throw ValidationError(
        "--input \(path): not a property list; this benchmark takes a keychain dump saved as a binary or XML "
          + "property list (an array of the keychain's dictionaries)")
    }
    let read: ADALReadResult
    do {
      read = try ADALCacheReader().read(try InputFile.read(path), file: path)
    } catch {
      // The reader's errors start with the file's name and where in it.
      throw ValidationError("--input \(error.localizedDescription)")
    }
    guard read.inputKind == .keychainPlistArray else {
      throw ValidationError(
        "--input \(path): adal2msal reads it as \(read.inputKind.rawValue); this benchmark takes an array of the "
          + "keychain's dictionaries (\(ADALInputKind.keychainPlistArray.rawValue))")
    }
    guard !read.items.isEmpty else {
      throw ValidationError(
        "--input \(path): no ADAL items (\(read.ignoredItemCount) other keychain item(s)); nothing to migrate, "
          + "so nothing to time")
    }
  }
}
