import Adal2MSAL
import ArgumentParser
import Foundation

/// `--adal`, `--msal` and `--max-input-size`: what a migration reads.
struct MigrationInputOptions: ParsableArguments {
  @Option(
    name: .customLong("adal"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "ADAL inputs: keychain dumps (plist or JSON), macOS cache blobs, archived items, ADAL Python / Azure CLI accessTokens.json, ADAL Node caches or ADAL.NET v3 blobs; a directory means every file in it and in its subdirectories (read on all cores; hidden entries, whose names start with a dot, are named and not read).",
      valueName: "file-or-directory"), transform: PathArgument.nonEmpty)
  var adal: [String] = []

  @Option(
    name: .customLong("msal"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "MSAL unified-cache JSON files to migrate along (MSAL.NET, Python, Java, Node, Go); a directory means every file in it and in its subdirectories, as for --adal.",
      valueName: "file-or-directory"),
    transform: PathArgument.nonEmpty)
  var msal: [String] = []

  // A value is taken unconditionally, so that `-1` gets the option's own error rather than "missing value".
  @Option(parsing: .unconditional, help: ArgumentHelp("Largest input file accepted, in bytes.", valueName: "bytes"))
  var maxInputSize: Int = InputLimits.default.maxInputBytes

  @Option(
    help: ArgumentHelp(
      "The time zone ADAL Python / Azure CLI wrote accessTokens.json's expiresOn in (local time without an offset): an identifier such as Europe/Berlin or UTC, or local, this machine's zone (TZ). An access token that is a JWT is read by its own exp claim instead.",
      valueName: "zone"))
  var adalTimeZone: String = "local"

  /// `--adal-time-zone` as a zone: `local` is the machine's (the file is normally migrated where it was written).
  static func timeZone(_ name: String) -> TimeZone? {
    name == "local" ? .current : TimeZone(identifier: name) ?? TimeZone(abbreviation: name)
  }

  var limits: InputLimits {
    var limits = InputLimits.default
    limits.maxInputBytes = maxInputSize
    limits.localTimeZone = Self.timeZone(adalTimeZone) ?? .current
    return limits
  }

  func validate() throws {
    guard maxInputSize > 0 else { throw ValidationError("--max-input-size must be positive") }
    guard Self.timeZone(adalTimeZone) != nil else {
      throw ValidationError(
        "--adal-time-zone \(adalTimeZone) is no time zone: give an identifier such as Europe/Berlin, UTC or local")
    }
  }
}

/// The options that change the plan.
struct PlanningOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The application a family refresh token belongs to when no item names one.", valueName: "client-id"))
  var clientID: String?

  @Flag(help: "Do not migrate access tokens (they are reported as skipped).")
  var skipAccessTokens = false

  @Option(help: "Which side wins when the store and the inputs disagree on a cache key: existing or adal.")
  var prefer: MigrationOptions.Preference = .existing

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Pin the clock for expiry decisions: ISO 8601 with its offset (2026-11-21T10:00:00Z, "
        + "2026-11-21T11:00:00+01:00), read strictly, or epoch seconds.", valueName: "time"))
  var now: String?

  @Option(
    name: .customLong("for"),
    help: ArgumentHelp(
      "The MSAL library the cache is for (dotnet, python, java, node, go, objc): the report shows each entry "
        + "under the key that library will store it at. Export with the same --for.",
      valueName: "library"))
  var library: MSALLibrary?

  /// `--now` and `--client-id` checked as the options are parsed, so that a bad value is answered with
  /// `migrate`'s usage (thrown from `run`, it got the root command's).
  func validate() throws {
    _ = try migrationOptions(redactUsernames: false)
  }

  func migrationOptions(redactUsernames: Bool) throws -> MigrationOptions {
    var clock = MigrationClock.system
    if let now {
      guard let date = Self.parseTime(now) else {
        throw ValidationError(
          "--now: '\(now)' is neither ISO 8601 with its offset (2026-11-21T10:00:00Z, 2026-11-21T11:00:00+01:00) "
            + "nor epoch seconds (decimal digits, within 10^12 s of 1970)")
      }
      clock = .fixed(date)
    }
    if let clientID, clientID.isEmpty || clientID.unicodeScalars.contains(where: Self.isNoIDCharacter) {
      // An MSAL library finds a refresh token by its client id as written: one with a pasted space is never used.
      throw ValidationError(
        "--client-id '\(TerminalText.escaped(clientID, keepingNewlines: false))' is no application id: it is empty "
          + "or holds a space or control character; give the app's client id, e.g. 4b0db8c2-9f26-4417-8bde-3f0e3656f8e0"
      )
    }
    return MigrationOptions(
      clientID: clientID, skipAccessTokens: skipAccessTokens, prefer: prefer, clock: clock,
      redactUsernames: redactUsernames, targetLibrary: library)
  }

  private static func isNoIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
  }

  /// Epoch seconds or ISO 8601 with its offset, each read strictly (`CivilTime.secondsSince1970(decimal:)` and
  /// `(iso8601:)`).
  static func parseTime(_ text: String) -> Date? {
    (CivilTime.secondsSince1970(decimal: text) ?? CivilTime.secondsSince1970(iso8601: text))
      .map(Date.init(timeIntervalSince1970:))
  }
}

extension MigrationOptions.Preference: ExpressibleByArgument {}
extension MSALLibrary: ExpressibleByArgument {}
