import Adal2MSALSupport

/// The 64-bit FNV-1a hash of a key's UTF-8 bytes, as the store's hash columns hold it (`key_hash`,
/// `home_account_hash`). The indexes are on these numbers instead of the keys' text (150-250 bytes each):
/// an index of numbers is a twentieth the size, stays in the page cache during a large apply, and takes
/// random keys without rewriting pages of a large B-tree. Every lookup also compares the text, so two keys
/// with the same hash are still told apart. Unlike Swift's `Hasher`, the value is the same in every process.
public enum KeyHash {
  /// The hash of `text` as SQLite stores it (the bits of the unsigned hash as a signed integer).
  public static func of(_ text: String) -> Int64 {
    // Not `withUTF8`, which is mutating: its copy of `text` was a retain and a release of a key (or a home account
    // id) that the report, rendered on the other core meanwhile, reads too (contended).
    let hash = text.utf8.withContiguousStorageIfAvailable(fnv1a) ?? fnv1a(text.utf8)
    return Int64(bitPattern: hash)
  }

  private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let prime: UInt64 = 0x0000_0100_0000_01b3

  private static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash = basis
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
    return hash
  }

  /// The hash of `text.lowercased()` (`home_account_hash`), without making the lowercased string when `text`
  /// is ASCII, whose lowercase is each capital letter's small one: the bytes are lowercased into a buffer on
  /// the stack (`String.copyLowercasingASCII`) and hashed there.
  static func ofLowercased(_ text: String) -> Int64 {
    // Not `withUTF8`, as in `of(_:)`.
    let hash = text.utf8.withContiguousStorageIfAvailable { bytes in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer -> UInt64? in
        guard let target = buffer.baseAddress else { return basis }
        guard String.copyLowercasingASCII(bytes, to: target) else { return nil }
        return fnv1a(UnsafeBufferPointer(buffer))
      }
    }
    guard let hash = hash ?? nil else { return of(text.lowercased()) }
    return Int64(bitPattern: hash)
  }
}

/// A row's canonical key with its `KeyHash`, computed once for every statement that writes the row.
struct HashedKey {
  let text: String
  let hash: Int64

  init(_ text: String) {
    self.init(text, hash: KeyHash.of(text))
  }

  /// A key whose hash was computed already (`RowPreparation`).
  init(_ text: String, hash: Int64) {
    self.text = text
    self.hash = hash
  }
}
