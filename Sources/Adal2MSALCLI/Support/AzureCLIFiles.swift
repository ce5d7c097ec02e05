import Adal2MSAL
import ArgumentParser
import Foundation

/// `migrate --azure-cli-dir DIR`: Azure CLI 2.30+'s two credential files, written beside each other after the
/// store (azure-cli-core `auth/identity.py`, `auth/persistence.py`: plain JSON when `core.encrypt_token_cache`
/// is off, the default outside Windows).
///
/// - `msal_token_cache.json`: the whole store as `export --for python` writes it (Azure CLI refreshes and signs
///   out through MSAL Python, which finds entries by the keys it computes). An existing one is the
///   user's current sign-ins: it must be one of the `--msal` inputs, so that it is merged, never overwritten.
/// - `service_principal_entries.json`: the ADAL inputs' service principals, added to an existing file's entries.
struct AzureCLIFiles {
  let directory: String

  var tokenCache: String { (directory as NSString).appendingPathComponent("msal_token_cache.json") }
  var servicePrincipals: String { (directory as NSString).appendingPathComponent("service_principal_entries.json") }

  /// Refuses, before anything is read or written, a directory that is missing or whose token cache would be lost.
  func validate(msalInputs: [String], dryRun: Bool) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw ValidationError("--azure-cli-dir \(directory) is not a directory")
    }
    guard !dryRun else { throw ValidationError("--azure-cli-dir writes files: leave out --dry-run") }
    let standard = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.path }
    if FileManager.default.fileExists(atPath: tokenCache), !msalInputs.map(standard).contains(standard(tokenCache)) {
      throw ValidationError(
        "\(tokenCache) exists: pass it with --msal so that its sign-ins are merged into the store, or move it away")
    }
  }

  /// Writes both files (mode 0600, atomically) from the store at `store` and the ADAL inputs.
  func write(store: String, sealing: SecretSealing?, adal: [String], limits: InputLimits) throws {
    let exported = try CacheStore.open(path: store, options: .reading(sealing: sealing)).export(for: .python)
    for diagnostic in exported.diagnostics { Terminal.standardError("adal2msal: \(diagnostic)") }
    let cache = exported.data
    let principals = try AzureCLIServicePrincipals.collect(fromADAL: adal, limits: limits)
    let existing = FileManager.default.contents(atPath: servicePrincipals)
    let merged: (data: Data, added: Int)
    do {
      merged = try AzureCLIServicePrincipals.merged(principals, into: existing)
    } catch {
      throw StoreCommandSupport.fail(
        "cannot merge the service principals (\(error))", file: servicePrincipals,
        todo: "move the file away and run again")
    }
    for (data, path) in [(cache, tokenCache), (merged.data, servicePrincipals)] {
      do {
        try StoreCommandSupport.writeOwnerOnly(data, to: path)
      } catch {
        throw StoreCommandSupport.fail(
          "cannot write an Azure CLI file (\(error))", file: path, todo: "check that the directory is writable")
      }
    }
    Terminal.standardError(
      "adal2msal: wrote \(tokenCache) and \(servicePrincipals) (\(merged.added) service principal(s) added: "
        + (principals.map(\.clientID).joined(separator: ", ").nonEmpty ?? "none") + ")")
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
