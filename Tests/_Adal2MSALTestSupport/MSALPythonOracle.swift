import Foundation

/// The real MSAL Python library as an independent reader of what we write (scripts/oracle/*.py, installed by
/// `scripts/bootstrap.sh --test-oracles` into `.venv-oracle/`). A missing interpreter is an error that says how to install it,
/// never a skipped test.
public enum MSALPythonOracle {
  public struct Missing: Error, CustomStringConvertible {
    public var path: String
    public init(path: String) { self.path = path }
    public var description: String {
      "the MSAL Python oracle is missing at \(path): run `bash scripts/bootstrap.sh --test-oracles` (or set ADAL2MSAL_PYTHON)"
    }
  }

  /// What `msal_python_check.py` must find in each Fixtures/msal-json file once our writer has written it:
  /// `{"accounts": [{username, home_account_id, environment?, client_id?}]}`.
  public static let fixtureExpectations: [String: String] = [
    "msal-dotnet_token_cache_one_acc_seed.json":
      #"{"accounts": [{"username": "LIU.KANG@bogavrilltd.onmicrosoft.com", "home_account_id": "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462", "client_id": "1d18b3b0-251b-4714-a02a-9956cec86c2d"}]}"#,
    "msal-dotnet_token_cache_adfs.json":
      #"{"accounts": [{"username": "fidlab@msidlab8.com", "home_account_id": "unZYjm1NugFLhP1l338bxhRYyHbtCYOWX1P+F2fCsiQ=", "client_id": "PublicClientId"}]}"#,
    "msal-dotnet_MultiCloudTokenCache.json": """
    {"accounts": [
      {"username": "user@cloud.onmicrosoft.com", "home_account_id": "ae821e4d-f408-451a-af82-882691148603.49f548d0-12b7-4169-a390-bb5304d24462", "environment": "login.windows.net", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"},
      {"username": "userde@cloudde.onmicrosoft.de", "home_account_id": "6afc833f-49c0-4fd5-b685-2998a6cc8d8d.469fdeb4-d4fd-4fde-991e-308a78e4bea4", "environment": "login.microsoftonline.de", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"},
      {"username": "usercn@cloudcn.partner.onmschina.cn", "home_account_id": "8d6ac642-17f6-4dd8-81e2-bf5bdb9a60d7.9e5e17b6-6e3d-4515-8895-0e7756474486", "environment": "login.partner.microsoftonline.cn", "client_id": "0615b6ca-88d4-4884-8729-b178178f7c27"}]}
    """,
    "msal-python-2019_via-msal-dotnet_cachecompat_python.json":
      #"{"accounts": [{"username": "abhi@ddobalianoutlook.onmicrosoft.com", "home_account_id": "13dd2c19-84cd-416a-ae7d-49573e425619.26039cce-489d-4002-8293-5b0c5134eacb", "client_id": "52d50834-b9a0-4948-9f62-1a3d283003d6"}]}"#,
    "msal-dotnet_CacheFromTheFuture.json": "{}",
  ]

  /// Runs `scripts/oracle/<script>` with `arguments`, feeding `stdin`.
  public static func run(_ script: String, arguments: [String], stdin: Data? = nil) throws -> ProcessRunner.Output {
    let python = BuiltProducts.oraclePython
    guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Missing(path: python.path) }
    let path = Fixtures.repositoryRoot.appendingPathComponent("scripts/oracle/\(script)").path
    return try ProcessRunner.run(python, arguments: [path] + arguments, stdin: stdin)
  }

  /// `msal_python_check.py CACHE` with the expectations JSON on standard input.
  public static func check(cache: URL, expectations: String) throws -> ProcessRunner.Output {
    try run("msal_python_check.py", arguments: [cache.path], stdin: Data(expectations.utf8))
  }
}
