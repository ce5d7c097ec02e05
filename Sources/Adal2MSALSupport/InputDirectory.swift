import Foundation

/// What a directory given as an input holds: the files a run reads, found in it and in every subdirectory, and
/// the hidden entries it passes over. Dumps kept a folder per device are read whole; a hidden entry (a Mac's
/// `.DS_Store`, a version-control folder) is not read, but named, so that nothing is left out unsaid.
package struct InputDirectory: Sendable, Hashable {
  /// The directory as given.
  package var path: String
  /// Every entry that is not a directory, here and in the subdirectories, sorted by path: regular files and
  /// links to them, and whatever else is there (a FIFO, a broken link), which the reader then names and refuses.
  package var files: [String] = []
  /// The entries whose names start with ".", here and in the subdirectories, sorted by path: not read, and a
  /// hidden directory not listed.
  package var hidden: [String] = []
  /// The run's own files found here (`passingOver`), sorted by path: a store kept beside the dumps it was
  /// migrated from is the run's target, not one of its inputs, and so is the last run's report there.
  package var runFiles: [String] = []

  /// Lists `path` and each of its subdirectories, in the order of their names. A directory reached through a
  /// symbolic link is listed after those reached without one, and a directory reached again (a loop, or a
  /// second path to it) is not listed again: each file is read once, under its path without links if it has one.
  ///
  /// - Parameter ownPaths: files of the run that are no inputs (its store, the store's side files, its
  ///   report), passed over wherever they are found, by identity, through links too, and kept in `runFiles`.
  /// - Throws: `InputFileError` naming the first directory that cannot be listed.
  package init(listing path: String, passingOver ownPaths: [String] = []) throws {
    self.path = path
    let ownFiles = Set(ownPaths.compactMap { FileIdentity($0) })
    var listed: Set<FileIdentity> = []
    var pending = [path]
    var linked: [String] = []
    while let directory = pending.popLast() ?? (linked.isEmpty ? nil : linked.removeFirst()) {
      let identity = FileIdentity(directory)
      if let identity, !listed.insert(identity).inserted { continue }
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        throw InputFileError(path: directory, problem: .unreadable(reason: "cannot list the directory"))
      }
      var subdirectories: [String] = []
      for name in names.sorted() {
        let entry = (directory as NSString).appendingPathComponent(name)
        if name.hasPrefix(".") {
          hidden.append(entry)
        } else if !FileIdentity.isDirectory(entry) {
          if !ownFiles.isEmpty, let identity = FileIdentity(entry), ownFiles.contains(identity) {
            runFiles.append(entry)
          } else {
            files.append(entry)
          }
        } else if FileIdentity.isLink(entry) {
          linked.append(entry)
        } else {
          subdirectories.append(entry)
        }
      }
      pending += subdirectories.reversed()
    }
    files.sort()
    hidden.sort()
    runFiles.sort()
  }

  /// The code of the note that names a hidden entry.
  package static let hiddenEntryCode = "input.hidden-entry"
  /// The code of the note that names a file of the run's own found in the directory.
  package static let runFileCode = "input.run-file"

  /// What a run says of this directory: a warning when it found no file to read at all (a mistyped or not yet
  /// filled folder would otherwise migrate nothing unsaid), and a note for each hidden entry and each file of
  /// the run's own it did not read.
  package var diagnostics: [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    if files.isEmpty {
      let onlyHidden = hidden.isEmpty ? "" : " (\(hidden.count) hidden, not read)"
      diagnostics.append(
        Diagnostic(
          .warning, code: "input.empty-directory", "the directory holds no file to read\(onlyHidden)",
          at: SourceLocation(file: path)))
    }
    diagnostics += hidden.map {
      Diagnostic(
        .note, code: Self.hiddenEntryCode,
        "not read: its name starts with \".\" (hidden); name it as an input to read it",
        at: SourceLocation(file: $0))
    }
    diagnostics += runFiles.map {
      Diagnostic(
        .note, code: Self.runFileCode,
        "not read: it is one of this run's own files (its store, a side file, its report, Azure CLI's service "
          + "principals)",
        at: SourceLocation(file: $0))
    }
    return diagnostics
  }
}
