import Adal2MSAL

// What each subcommand's run calls its files when it refuses one (an output, which the runs check first thing,
// `RunFiles.swift`; an input given in the wrong place; Azure CLI's directory), and how it says to give them
// instead: the options' names, and the key file, which the runs never see.

extension RunFileNames {
  /// The names the commands share: `--out` for the store they write, the key file, and the command that reads a
  /// file given to one that does not.
  static func commandLine(keyFile: String?) -> RunFileNames {
    var names = RunFileNames()
    names.storeOutput = "--out"
    names.store = "the --out store"
    names.giveAsADALInput = "read it with adal2msal migrate --adal"
    names.giveAsMSALInput = "read it with adal2msal migrate --msal"
    names.giveAsStore = "pass it as --out"
    names.azureCLIDirectory = "--azure-cli-dir"
    names.toWriteAzureCLIFiles = "leave out --dry-run"
    names.toShowAPropertyList = "adal2msal inspect shows its tree"
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
    var names = RunFileNames.commandLine(keyFile: nil)
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
