import Adal2MSALSupport
import Crypto
import Foundation

/// AES-256-GCM sealing of the `secret` column, and of every column that keeps input as it was read
/// (`sealField`). A sealed secret is a BLOB: `version (1 byte, 0x01) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`,
/// with the row's canonical key as associated data, so a sealed value copied to another row does not open; a
/// sealed field is the same with version 0x02 and its column's name before the key. The key itself is never stored: the database
/// keeps only a key check value (an HMAC of a constant), which tells a wrong key from a right one.
public struct SecretSealing: Sendable {
  /// The first byte of every sealed value.
  public static let formatVersion: UInt8 = 1
  /// The environment variable read by `fromEnvironment()`.
  public static let environmentVariable = "ADAL2MSAL_ENCRYPTION_KEY"
  static let keyCheckMessage = Data("adal2msal cache store key check v1".utf8)

  private let key: SymmetricKey

  /// A sealing key from exactly 32 bytes.
  public init(keyBytes: Data) throws(CacheStoreError) {
    guard keyBytes.count == 32 else {
      throw CacheStoreError(
        .badKey, "the encryption key is \(keyBytes.count) bytes, not 32",
        at: SourceLocation())
    }
    key = SymmetricKey(data: keyBytes)
  }

  /// A key of any length, not checked. AES-GCM refuses a key that is not 16, 24 or 32 bytes long, which is the
  /// one way sealing a secret fails: tests give such a key to reach what a run does then (the run throws, names
  /// the row, and writes nothing).
  package init(uncheckedKeyBytes: Data) {
    key = SymmetricKey(data: uncheckedKeyBytes)
  }

  /// Reads a key file: exactly 32 raw bytes, or (surrounding white space ignored) 64 hex digits or the base64
  /// of 32 bytes.
  public static func keyFile(at path: String) throws(CacheStoreError) -> SecretSealing {
    let data: Data
    // A key is at most a few dozen bytes: a FIFO or a device (/dev/zero, /dev/stdin) is refused unread, and
    // a large file is not read whole.
    if let kind = OwnerOnlyFile.nonRegularKind(path) {
      throw CacheStoreError(
        .badKey, "the key file is \(kind), not a regular file", remedy: "give the file that holds the key",
        at: SourceLocation(file: path))
    }
    do {
      guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoPermission) }
      defer { try? handle.close() }
      data = try handle.read(upToCount: 4096) ?? Data()
    } catch {
      throw CacheStoreError(.badKey, "cannot read the key file", at: SourceLocation(file: path))
    }
    if data.count == 32 { return try SecretSealing(keyBytes: data) }
    guard data.count < 4096, let text = String(data: data, encoding: .utf8) else {
      throw CacheStoreError(
        .badKey, "the key file is not 32 raw bytes, 64 hex digits or base64", at: SourceLocation(file: path))
    }
    do {
      return try keyText(text)
    } catch {
      throw CacheStoreError(error.reason, error.message, remedy: error.remedy, at: SourceLocation(file: path))
    }
  }

  /// A key given as text: 64 hex digits or the base64 of 32 bytes (white space around it ignored).
  public static func keyText(_ text: String) throws(CacheStoreError) -> SecretSealing {
    let trimmed = text.trimmedWhitespaceAndNewlines()
    if trimmed.count == 64, let bytes = hexBytes(trimmed) { return try SecretSealing(keyBytes: bytes) }
    if let bytes = Data(base64Encoded: trimmed), bytes.count == 32 { return try SecretSealing(keyBytes: bytes) }
    throw CacheStoreError(
      .badKey, "the encryption key is not 64 hex digits or the base64 of 32 bytes", at: SourceLocation())
  }

  /// The key from `ADAL2MSAL_ENCRYPTION_KEY`, or nil when it is not set. Set but empty (`VAR= adal2msal …`, or a
  /// secret store that gave nothing) is an error, never a store in clear: whoever set it asked for encryption.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(CacheStoreError) -> SecretSealing? {
    guard let text = environment[environmentVariable] else { return nil }
    guard !text.trimmedWhitespaceAndNewlines().isEmpty else {
      throw CacheStoreError(
        .badKey, "\(environmentVariable) is set but empty",
        remedy: "give the key (64 hex digits or the base64 of 32 bytes), or unset it to keep tokens in clear",
        at: SourceLocation(keyPath: "$\(environmentVariable)"))
    }
    do {
      return try keyText(text)
    } catch {
      throw CacheStoreError(
        error.reason, error.message, remedy: error.remedy, at: SourceLocation(keyPath: "$\(environmentVariable)"))
    }
  }

  /// The key check value stored in `settings`: hex HMAC-SHA256 of a constant under the key.
  public var keyCheckValue: String {
    let mac = HMAC<SHA256>.authenticationCode(for: Self.keyCheckMessage, using: key)
    return Data(mac).map { String(format: "%02x", $0) }.joined()
  }

  /// Seals a secret for the row `rowKey` of the store `file`.
  func seal(_ secret: String, rowKey: String, file: String) throws(CacheStoreError) -> Data {
    try seal(secret, version: Self.formatVersion, associatedData: Data(rowKey.utf8), file: file, keyPath: rowKey)
  }

  /// Opens a sealed secret of the row `rowKey`; fails when the value was tampered with, belongs to another row
  /// or was sealed under another key.
  func open(_ sealed: Data, rowKey: String, file: String) throws(CacheStoreError) -> String {
    try open(
      sealed, version: Self.formatVersion, associatedData: Data(rowKey.utf8), what: "secret", file: file,
      keyPath: rowKey)
  }

  /// The first byte of a sealed value of another column than `secret` (`sealField`), so that a sealed secret
  /// never opens there, nor such a value as a secret.
  public static let fieldFormatVersion: UInt8 = 2

  /// Seals the text of `column` (`additional_fields`, `written_form`, `unknown_sections.value`: input kept as
  /// it was read, which may hold tokens) of the row `rowKey` (a section's name for `unknown_sections`). The
  /// associated data is the column's name, a NUL byte and the row key: a sealed value moved to another column or
  /// row does not open.
  func sealField(_ text: String, column: String, rowKey: String, file: String) throws(CacheStoreError) -> Data {
    try seal(
      text, version: Self.fieldFormatVersion, associatedData: Self.fieldAssociatedData(column, rowKey), file: file,
      keyPath: rowKey)
  }

  /// Opens a value sealed by `sealField`; fails as `open` does.
  func openField(_ sealed: Data, column: String, rowKey: String, file: String) throws(CacheStoreError) -> String {
    try open(
      sealed, version: Self.fieldFormatVersion, associatedData: Self.fieldAssociatedData(column, rowKey),
      what: column, file: file, keyPath: rowKey)
  }

  private static func fieldAssociatedData(_ column: String, _ rowKey: String) -> Data {
    var data = Data(column.utf8)
    data.append(0)
    data.append(contentsOf: rowKey.utf8)
    return data
  }

  private func seal(
    _ text: String, version: UInt8, associatedData: Data, file: String, keyPath: String
  ) throws(CacheStoreError) -> Data {
    do {
      let box = try AES.GCM.seal(Data(text.utf8), using: key, authenticating: associatedData)
      guard let combined = box.combined else {
        throw CacheStoreError(
          .database, "sealing produced no output", at: SourceLocation(file: file, keyPath: keyPath))
      }
      var out = Data([version])
      out.append(combined)
      return out
    } catch let error as CacheStoreError {
      throw error
    } catch {
      throw CacheStoreError(.database, "cannot seal a secret", at: SourceLocation(file: file, keyPath: keyPath))
    }
  }

  private func open(
    _ sealed: Data, version: UInt8, associatedData: Data, what: String, file: String, keyPath: String
  ) throws(CacheStoreError) -> String {
    let unreadable = CacheStoreError(
      .secretUnreadable,
      "the sealed \(what) does not open (tampered, moved from another row, or sealed with another key)",
      at: SourceLocation(file: file, keyPath: keyPath))
    guard sealed.first == version, sealed.count >= 1 + 12 + 16 else { throw unreadable }
    do {
      let box = try AES.GCM.SealedBox(combined: sealed.dropFirst())
      let plain = try AES.GCM.open(box, using: key, authenticating: associatedData)
      guard let text = String(data: plain, encoding: .utf8) else { throw unreadable }
      return text
    } catch {
      throw unreadable
    }
  }

  private static func hexBytes(_ text: String) -> Data? {
    var bytes = Data()
    var iterator = text.utf8.makeIterator()
    while let high = iterator.next() {
      guard let low = iterator.next(), let h = hexValue(high), let l = hexValue(low) else { return nil }
      bytes.append(h << 4 | l)
    }
    return bytes
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

extension SecretSealing: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// Never the key.
  public var description: String { "SecretSealing(AES-256-GCM)" }
  public var debugDescription: String { description }
  /// No children: `dump` and the debugger would walk the stored key down to its bytes.
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}
