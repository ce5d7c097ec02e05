import Foundation

/// File names that are not UTF-8. A Swift `String` cannot hold them: made into one, each bad byte became U+FFFD
/// and the path named another file (reported as "no such file"). adal2msal reads only files whose paths are
/// UTF-8; any other is named with each byte that is not UTF-8 written `\xFF` and refused, never opened under a
/// changed name. A directory's walk (`InputDirectory`) lists such an entry under that escaped name, and
/// `InputFile` refuses the name (`InputFileError.Problem.nameNotUTF8`), so that a run over a directory skips it
/// named and counted.
package enum FileNameBytes {
  /// `bytes` as text: UTF-8 as it is, each byte that is not part of a well-formed UTF-8 sequence as `\xHH`.
  package static func escaped(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    var text = ""
    var position = 0
    while position < bytes.count {
      var parser = Unicode.UTF8.ForwardParser()
      var input = bytes[position...].makeIterator()
      switch parser.parseScalar(from: &input) {
      case .valid(let encoded):
        text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        position += encoded.count
      case .emptyInput: return text
      case .error(let length):
        for byte in bytes[position..<position + length] { text += "\\x" + TerminalText.hex(UInt32(byte)) }
        position += length
      }
    }
    return text
  }

  /// Whether `bytes` are well-formed UTF-8.
  package static func isUTF8(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { String.isUTF8($0) }
  }

  /// The bytes `escaped` made `name` of: each `\xHH` of a byte from 0x80 on read back as that byte. Nil when that
  /// gives UTF-8 (then `name` is no escaped name: it is a name as it is, `\x` and all).
  package static func unescaped(_ name: String) -> [UInt8]? {
    let utf8 = Array(name.utf8)
    var bytes: [UInt8] = []
    var position = 0
    while position < utf8.count {
      if utf8[position] == UInt8(ascii: "\\"), position + 3 < utf8.count, utf8[position + 1] == UInt8(ascii: "x"),
        let byte = UInt8(String(decoding: utf8[position + 2...position + 3], as: UTF8.self), radix: 16),
        byte >= 0x80
      {
        bytes.append(byte)
        position += 4
      } else {
        bytes.append(utf8[position])
        position += 1
      }
    }
    return isUTF8(bytes) ? nil : bytes
  }

  /// What the file system has under `path` when its last component is an escaped name (`escaped`) of a file whose
  /// name is not UTF-8: "a file", "a directory"…; nil when it has nothing there (or the name is no escaped name).
  package static func undecodableEntry(_ path: String) -> String? {
    let name = (path as NSString).lastPathComponent
    guard name.contains("\\x"), let raw = unescaped(name) else { return nil }
    let parent = Array(path.utf8.dropLast(name.utf8.count))
    var info = stat()
    let found = ((parent + raw).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
      lstat($0.baseAddress!, &info) == 0
    }
    guard found else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return "a directory"
    case S_IFLNK: return "a symbolic link"
    case S_IFREG: return "a file"
    default: return "an entry"
    }
  }

  /// The text of the system's error `code` (`strerror`), as "No such file or directory".
  package static func systemError(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
