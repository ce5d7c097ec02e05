import Adal2MSAL

/// What a file is and holds, before a run is given it: the lines `adal2msal inspect` prints, tokens as
/// SHA-256 fingerprints.
func describe(file: String) throws -> String {
  try Inspection(file: file).render(.text)
}
