import Foundation

/// The memory floor of any reader that returns Swift `String`s: every string object of the benchmark's own
/// binary plist (trusted input: nothing is checked) decoded into one array, nothing else kept.
enum PlistStringFloor {
  static func strings(in data: Data) -> [String] {
    data.withUnsafeBytes { bytes in
      let trailer = bytes.count - 32
      let offsetSize = Int(bytes[trailer + 6])
      let objectCount = Int(unsigned(bytes, at: trailer + 8, size: 8))
      let table = Int(unsigned(bytes, at: trailer + 24, size: 8))
      var strings: [String] = []
      for index in 0..<objectCount {
        let offset = Int(unsigned(bytes, at: table + index * offsetSize, size: offsetSize))
        let kind = bytes[offset] >> 4
        guard kind == 0x5 || kind == 0x6 else { continue }
        var length = Int(bytes[offset] & 0x0F)
        var start = offset + 1
        if length == 0x0F {
          let size = 1 << Int(bytes[offset + 1] & 0x0F)
          length = Int(unsigned(bytes, at: offset + 2, size: size))
          start = offset + 2 + size
        }
        if kind == 0x5 {
          let utf8 = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
          strings.append(String(decoding: utf8, as: UTF8.self))
        } else {
          let units = (0..<length).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
          strings.append(String(decoding: units, as: UTF16.self))
        }
      }
      return strings
    }
  }

  private static func unsigned(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
    (offset..<(offset + size)).reduce(0) { $0 << 8 | UInt64(bytes[$1]) }
  }
}
