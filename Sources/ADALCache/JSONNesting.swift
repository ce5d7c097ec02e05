import Adal2MSALSupport
import Foundation

/// The nesting depth of a JSON text, measured before Foundation's parser sees it: JSONSerialization has a
/// depth limit of its own and none of `InputLimits.maxDepth`.
enum JSONNesting {
  /// The byte offset where the nesting first exceeds `limit` (brackets inside strings do not count), or nil.
  static func offsetBeyond(_ limit: Int, in data: Data) -> Int? {
    var depth = 0
    var inString = false
    var escaped = false
    for (offset, byte) in data.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return offset }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return nil
  }
}
