import Adal2MSAL

// What each writing subcommand's run calls its files when it refuses an output (the runs check them first
// thing, `RunFiles.swift`): the options' names, and the key file, which the runs never see.

extension RunFileNames {
  /// The names the store commands share: `--out` for the store they write, and the key file.
  static func commandLine(keyFile: String?) -> RunFileNames {
    var names = RunFileNames()
    names.storeOutput = "--out"
    names.store = "the --out store"
    if let keyFile { names.otherReads = [RunFile(role: "the --encryption-key-file", path: keyFile)] }
    return names
  }
}

extension Adal2MSALCommand.Migrate {
  var fileNames: RunFileNames {
    var names = RunFileNames.commandLine(keyFile: encryptionKeyFile)
    names.adalInput = "the --adal input"
    names.msalInput = "the --msal input"
    names.report = "--report"
    return names
  }
}

extension Adal2MSALCommand.Import {
  var fileNames: RunFileNames {
    var names = RunFileNames.commandLine(keyFile: encryptionKeyFile)
    names.msalInput = "the input"
    return names
  }
}

extension Adal2MSALCommand.Export {
  var fileNames: RunFileNames {
    var names = RunFileNames.commandLine(keyFile: encryptionKeyFile)
    names.store = "the store"
    names.export = "--output"
    return names
  }
}
