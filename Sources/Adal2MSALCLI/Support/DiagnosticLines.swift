import Adal2MSAL

/// A command's diagnostics on standard error: every warning and error, each of which names something left out or
/// not read; of the notes, which say that nothing was lost, the first few of each code and a count of the rest (an
/// export of a fleet's store holds one per user, a fleet copied from Macs a `.DS_Store` per folder), and none
/// under `--quiet`.
enum DiagnosticLines {
  static let notesListedPerCode = 3

  static func print(_ diagnostics: [Diagnostic], quiet: Bool = false) {
    var notes: [(code: String, count: Int)] = []
    for diagnostic in diagnostics {
      guard diagnostic.severity == .note else {
        Terminal.standardError("adal2msal: \(diagnostic)")
        continue
      }
      guard !quiet else { continue }
      let index = notes.firstIndex { $0.code == diagnostic.code } ?? notes.endIndex
      if index == notes.endIndex { notes.append((diagnostic.code, 0)) }
      notes[index].count += 1
      if notes[index].count <= notesListedPerCode { Terminal.standardError("adal2msal: \(diagnostic)") }
    }
    for (code, count) in notes where count > notesListedPerCode {
      Terminal.standardError("adal2msal: note: \(count - notesListedPerCode) more like the notes above [\(code)]")
    }
  }

  /// The warning that counts the entries an export (`file`) left out, named above by `print`.
  static func printLeftOut(_ count: Int, of file: String) {
    Terminal.standardError(
      "adal2msal: warning: \(count) entry(ies) of the store left out of \(file) (named above); the store still "
        + "holds them")
  }
}
