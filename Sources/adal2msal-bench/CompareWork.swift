import Foundation
import GRDB

/// Whether the two contenders of `compare` did the same work: a ratio of the script's time to adal2msal's means
/// something only when both stores hold the same tokens and users. Compared by sets, not by row counts: adal2msal
/// writes a family refresh token and each app's own (MSAL's layout), where the script writes one row, so their
/// rows legitimately differ while the secrets they keep are the same.
struct CompareWork {
  /// One kind of thing both stores hold, as a set on each side.
  struct Kind {
    /// What is compared, as the line prints it ("refresh tokens").
    var name: String
    var inAdal2msal: Int
    var inScript: Int
    var onlyInAdal2msal: Int
    var onlyInScript: Int

    var isSame: Bool { onlyInAdal2msal == 0 && onlyInScript == 0 }
  }

  var kinds: [Kind]

  var isSame: Bool { kinds.allSatisfy(\.isSame) }

  /// Each kind as a query of one column set on each side: the secrets by their bytes (the script stores text,
  /// adal2msal blobs), users by their home account id, apps by environment and client id. The script's
  /// app metadata keeps the family of whichever item came last, so the family is not compared.
  private static let queries: [(name: String, adal2msal: String, script: String)] = [
    (
      "refresh tokens", "SELECT CAST(secret AS BLOB) FROM main.credentials WHERE credential_kind = 'RefreshToken'",
      "SELECT CAST(secret AS BLOB) FROM script.refresh_tokens"
    ),
    (
      "access tokens", "SELECT CAST(secret AS BLOB) FROM main.credentials WHERE credential_kind = 'AccessToken'",
      "SELECT CAST(secret AS BLOB) FROM script.access_tokens"
    ),
    (
      "id tokens", "SELECT CAST(secret AS BLOB) FROM main.credentials WHERE credential_kind = 'IdToken'",
      "SELECT CAST(secret AS BLOB) FROM script.id_tokens"
    ),
    ("users", "SELECT home_account_id FROM main.accounts", "SELECT home_account_id FROM script.accounts"),
    (
      "apps", "SELECT environment, client_id FROM main.app_metadata",
      "SELECT environment, client_id FROM script.app_metadata"
    ),
  ]

  /// Compares adal2msal's store with the script's. Counts only: no secret leaves SQLite.
  static func compare(adal2msal: String, script: String) throws -> CompareWork {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: adal2msal, configuration: configuration)
    return try queue.inDatabase { db in
      try db.execute(sql: "ATTACH DATABASE ? AS script", arguments: [script])
      defer { try? db.execute(sql: "DETACH DATABASE script") }
      let kinds = try queries.map { query in
        func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))") ?? 0 }
        return Kind(
          name: query.name,
          inAdal2msal: try count("SELECT DISTINCT * FROM (\(query.adal2msal))"),
          inScript: try count("SELECT DISTINCT * FROM (\(query.script))"),
          onlyInAdal2msal: try count("\(query.adal2msal) EXCEPT \(query.script)"),
          onlyInScript: try count("\(query.script) EXCEPT \(query.adal2msal)"))
      }
      return CompareWork(kinds: kinds)
    }
  }

  /// What `compare` prints under its table: one line when the work is the same, else a line for each kind that
  /// differs.
  var lines: [String] {
    if isSame {
      let counts = kinds.map { "\($0.inAdal2msal) \($0.name)" }
      return [
        "same work: both stores hold the same " + counts.dropLast().joined(separator: ", ") + " and "
          + (counts.last ?? "") + " (tokens by their secret, users by home account id, apps by environment and "
          + "client id)"
      ]
    }
    return ["NOT the same work, so the ratios compare unlike runs:"]
      + kinds.filter { !$0.isSame }.map {
        "  \($0.name): \($0.inAdal2msal) in adal2msal's store, \($0.inScript) in the script's; "
          + "\($0.onlyInAdal2msal) only in adal2msal's, \($0.onlyInScript) only in the script's"
      }
  }
}
