import Adal2MSAL

// What each subcommand's run calls its files when it refuses one (an output, which the runs check first thing,
// `RunFiles.swift`; an input given in the wrong place; Azure CLI's directory), and how it says to give them
// instead: the options' names, and the key file, which the runs never see.

extension RunFileNames {
  /// The names the store commands share: `--out` for the store they write, and the key file.
  static func commandLine(keyFile: String?) -> RunFileNames {
    var names = RunFileNames()
    names.storeOutput = "--out"
    names.store = "the --out store"
    names.giveAsStore = "pass it as --out"
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
    names.giveAsADALInput = "pass it with --adal"
    names.giveAsMSALInput = "pass it with --msal"
    names.azureCLIDirectory = "--azure-cli-dir"
    names.toWriteAzureCLIFiles = "leave out --dry-run"
    return names
  }
}

extension Adal2MSALCommand.Import {
  var fileNames: RunFileNames {
    var names = RunFileNames.commandLine(keyFile: encryptionKeyFile)
    names.msalInput = "the input"
    names.giveAsADALInput = "migrate it with adal2msal migrate --adal"
    return names
  }
}

extension Adal2MSALCommand.Inspect {
  var fileNames: RunFileNames {
    var names = RunFileNames()
    names.giveAsStore = "adal2msal accounts lists its accounts, and adal2msal export writes it out as a cache"
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
