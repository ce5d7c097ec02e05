import Adal2MSALSupport
import Foundation

/// The text of a property list string: a native `String`, or a string object of a binary property list left
/// in the input buffer and decoded on access.
///
/// The binary reader borrows its strings instead of decoding them: an ASCII string is a slice of the input
/// `Data`, a UTF-16 string the slice of its big-endian code units (checked for unpaired surrogates while
/// reading). Slices share the input's storage, so a parsed tree costs no copy of its text, and only the
/// strings a caller reads are ever decoded. The XML reader and `init(_:)` make native strings.
///
/// A borrowed string keeps the whole input buffer alive for as long as it (or a copy of it) exists: take
/// `value` for what must outlive the input.
///
/// Equality, hashing and ordering compare Unicode scalars, whatever the storage, as Foundation compares property
/// list strings (`NSString` equality is literal). `String` equality is canonical equivalence instead: `"é"` as one
/// scalar and as `e` plus a combining accent are equal `String`s but different `PropertyListString`s.
public struct PropertyListString: Sendable {
  enum Storage {
    case native(String)
    /// Bytes below 0x80, which are their own UTF-8.
    case ascii(Data)
    /// Big-endian UTF-16 code units, every surrogate paired.
    case utf16BigEndian(Data)
  }

  let storage: Storage

  /// A native string.
  public init(_ string: String) { storage = .native(string) }

  /// Borrows ASCII bytes (the binary reader's strings with marker 0x5).
  /// - Precondition: every byte is below 0x80.
  init(ascii bytes: Data) { storage = .ascii(bytes) }

  /// Borrows big-endian UTF-16 code units (the binary reader's strings with marker 0x6).
  /// - Precondition: an even number of bytes, and every surrogate paired.
  init(utf16BigEndian bytes: Data) { storage = .utf16BigEndian(bytes) }

  /// The text as a `String`, decoded on each call for a borrowed string (a native one is returned as is).
  public var value: String {
    switch storage {
    case .native(let string): string
    case .ascii(let bytes): bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    case .utf16BigEndian(let bytes): bytes.withUnsafeBytes { String(decoding: BigEndianUTF16Units($0), as: UTF16.self) }
    }
  }

  /// The length of the text in UTF-8 bytes, without decoding it.
  public var utf8Count: Int {
    switch storage {
    case .native(let string): return string.utf8.count
    case .ascii(let bytes): return bytes.count
    case .utf16BigEndian(let bytes):
      return bytes.withUnsafeBytes { raw in
        BigEndianUTF16Units(raw).reduce(0) { count, unit in
          switch unit {
          case ..<0x80: count + 1
          case ..<0x800: count + 2
          case 0xD800...0xDBFF: count + 4  // the pair's four bytes; its low surrogate adds none
          case 0xDC00...0xDFFF: count
          default: count + 3
          }
        }
      }
    }
  }

  /// `utf8Count` where it takes no decoding (native and ASCII strings).
  private var knownUTF8Count: Int? {
    switch storage {
    case .native(let string): string.utf8.count
    case .ascii(let bytes): bytes.count
    case .utf16BigEndian: nil
    }
  }

  public var isEmpty: Bool {
    switch storage {
    case .native(let string): string.isEmpty
    case .ascii(let bytes), .utf16BigEndian(let bytes): bytes.isEmpty
    }
  }

  /// Whether the text starts with the scalars of `prefix` (a borrowed ASCII string is not decoded).
  public func hasPrefix(_ prefix: String) -> Bool {
    withUTF8 { bytes in bytes.starts(with: prefix.utf8) }
  }

  /// `withUTF8(_:)` for callers in other modules: not generic, so that they do not reach the bytes through
  /// unspecialized generic code (which cost several times the comparison of a short string's bytes).
  package func withUTF8Bytes(_ body: (UnsafeRawBufferPointer) -> Void) { withUTF8(body) }

  /// Calls `body` with the text's UTF-8 bytes: in place for native and ASCII strings, decoded for UTF-16.
  func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    switch storage {
    case .ascii(let bytes): return try bytes.withUnsafeBytes(body)
    case .native(let string):
      // In place when contiguous (native strings are): `withUTF8` is mutating, and the copy it needs was a
      // retain and a release per hash or comparison of a read's shared strings.
      if let result = try string.utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
      }
      var copy = string
      return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    case .utf16BigEndian:
      var string = value
      return try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
  }
}

extension PropertyListString: Hashable, Comparable {
  public static func == (lhs: PropertyListString, rhs: PropertyListString) -> Bool {
    switch (lhs.storage, rhs.storage) {
    // Same encoding: equal scalars are equal bytes.
    case (.ascii(let left), .ascii(let right)), (.utf16BigEndian(let left), .utf16BigEndian(let right)):
      return left == right
    default:
      // Unequal lengths, where known without decoding, differ: most strings a hash table compares are others.
      if let left = lhs.knownUTF8Count, let right = rhs.knownUTF8Count, left != right { return false }
      return lhs.withUTF8 { left in
        rhs.withUTF8 { right in
          guard left.count == right.count, let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
            return left.count == right.count
          }
          return memcmp(leftBase, rightBase, left.count) == 0
        }
      }
    }
  }

  /// Hashes the UTF-8 bytes (and a terminator, which UTF-8 never contains), the same for every storage.
  public func hash(into hasher: inout Hasher) {
    withUTF8 { hasher.combine(bytes: $0) }
    hasher.combine(0xFF as UInt8)
  }

  /// Orders by Unicode scalar values (which is the order of the UTF-8 bytes).
  public static func < (lhs: PropertyListString, rhs: PropertyListString) -> Bool {
    lhs.withUTF8 { left in rhs.withUTF8 { right in left.lexicographicallyPrecedes(right) } }
  }
}

extension PropertyListString: ExpressibleByStringInterpolation, CustomStringConvertible, CustomDebugStringConvertible {
  public init(stringLiteral value: String) { self.init(value) }

  public init(stringInterpolation: DefaultStringInterpolation) {
    self.init(String(stringInterpolation: stringInterpolation))
  }

  /// The text itself (decoded), or its fingerprint when it looks like a token (`SecretPolicy.looksLikeToken`):
  /// a string read from a keychain dump may be one, and descriptions reach logs and test failures. Read `value`
  /// for the text.
  public var description: String {
    let text = value
    return SecretPolicy.looksLikeToken(text) ? SecretFingerprint.of(text) : text
  }

  /// The text quoted and escaped, as `String` shows itself, or the fingerprint of a token-like text.
  public var debugDescription: String {
    let text = value
    return SecretPolicy.looksLikeToken(text) ? SecretFingerprint.of(text) : text.debugDescription
  }
}

/// No children: the storage's payload is the text itself (a native `String`), which `dump` and the debugger
/// would print whole; they show `debugDescription` instead.
extension PropertyListString: CustomReflectable {
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// Big-endian UTF-16 code units over raw bytes of even length, for decoding without a copy.
private struct BigEndianUTF16Units: RandomAccessCollection {
  let bytes: UnsafeRawBufferPointer

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var startIndex: Int { 0 }
  var endIndex: Int { bytes.count / 2 }

  subscript(position: Int) -> UInt16 {
    UInt16(bytes[2 * position]) << 8 | UInt16(bytes[2 * position + 1])
  }
}
