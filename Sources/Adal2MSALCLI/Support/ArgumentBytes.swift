import Adal2MSALSupport
import Foundation

/// Arguments that are not UTF-8 (a path with a byte such as 0xFF in a name). Swift's `CommandLine.arguments`
/// replaces each bad byte with U+FFFD, so the path would name another file ("no such file"). Refused before
/// parsing, as an unusable input named directly is (status 1, one error line), named with each byte that is not
/// UTF-8 as `\xFF`: adal2msal reads only UTF-8 paths. A directory's file with such a name is skipped and named
/// (`InputDirectory`).
enum ArgumentBytes {
  /// The error line for the first argument that is not UTF-8, as lines; nil when every argument is UTF-8.
  static func refusal(_ arguments: [[UInt8]]) -> String? {
    guard let position = arguments.firstIndex(where: { !FileNameBytes.isUTF8($0) }) else { return nil }
    return
      "adal2msal: error: argument \(position + 1) is not UTF-8: \(FileNameBytes.escaped(arguments[position])) (each byte "
      + "that is not is shown as \\xHH); adal2msal reads only UTF-8 paths: rename the file, or give its directory "
      + "(the file is then skipped and named)"
  }

  /// The process's arguments after the program's name, as bytes.
  static var given: [[UInt8]] {
    (1..<Int(CommandLine.argc)).compactMap { index in
      CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
    }
  }
}
