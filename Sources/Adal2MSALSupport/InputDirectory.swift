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
      let names = try Self.names(in: directory)
      var subdirectories: [String] = []
      for (name, isUTF8) in names.sorted(by: { $0.name < $1.name }) {
        let entry = (directory as NSString).appendingPathComponent(name)
        if name.hasPrefix(".") {
          hidden.append(entry)
        } else if !isUTF8 {
          // Not UTF-8: listed under its escaped name, which the reader refuses naming it (a directory is not
          // listed: its files' paths would not be UTF-8 either).
          files.append(entry)
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

  /// The names of the entries of `directory` (not `.` and `..`), by `readdir`, each with whether it is UTF-8; one
  /// that is not is given escaped (`FileNameBytes.escaped`). Foundation's listing made such a name a string with
  /// U+FFFD for each bad byte, which named no file.
  /// - Throws: `InputFileError` with the system's error when the directory cannot be listed.
  package static func names(in directory: String) throws(InputFileError) -> [(name: String, isUTF8: Bool)] {
    func failure(_ code: Int32) -> InputFileError {
      InputFileError(
        path: directory, problem: .unreadable(reason: "cannot list the directory: \(FileNameBytes.systemError(code))"))
    }
    guard let stream = opendir(directory) else { throw failure(errno) }
    defer { closedir(stream) }
    var names: [(name: String, isUTF8: Bool)] = []
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        if errno != 0 { throw failure(errno) }
        return names
      }
      let bytes = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
          Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))))
        }
      }
      if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
      if FileNameBytes.isUTF8(bytes) {
        names.append((String(decoding: bytes, as: UTF8.self), true))
      } else {
        names.append((FileNameBytes.escaped(bytes), false))
      }
    }
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
