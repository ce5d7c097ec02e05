// Runs the real MSAL.NET (Microsoft.Identity.Client, netstandard2.0 build, on Mono) against a faked network.
// Built and run by Tests/_Adal2MSALTestSupport/MSALNetOracle.swift; the libraries come from
// `scripts/bootstrap.sh --test-oracles` (.msalnet-oracle/lib).
//
// Usage:
//   msalnet_oracle.exe lifecycle CACHE ARGS_FILE
//       The account lifecycle of msal_python_lifecycle.py (same ARGS file) on a unified cache, through
//       MSAL.NET's own API: DeserializeMsalV3, GetAccountsAsync, AcquireTokenSilent (cached, forced or expired
//       refresh; "replaced": the redeemed RT is gone after it; "second_refresh": the next refresh, over the cache
//       MSAL.NET saved, posts the new RT), RemoveAsync, and a FOCI peer app. Optional per
//       account spec: "expectedRefreshTokenFingerprint", the RT the refresh must post.
//   msalnet_oracle.exe adal-blob BLOB ARGS_FILE OUT
//       What MSAL.NET builds from an ADAL.NET v3 blob: DeserializeAdalV3(BLOB), GetAccountsAsync, then for each
//       ARGS account AcquireTokenSilent (MSAL.NET redeems the ADAL refresh token it finds for the account), and
//       SerializeMsalV3 to OUT.
// Output: JSON on stdout {"accounts": [{"label", "checks": {name: {"status", "reason"}}}], "passed", "failed",
// "skipped", "summary"}; the summary also on stderr. Secrets never appear, only "sha256:<12 hex>" fingerprints.
// Exit 0 when no check failed, 1 otherwise, 2 on bad usage.
using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Identity.Client;

sealed class CheckFailed : Exception { public CheckFailed(string why) : base(why) { } }
sealed class Skip : Exception { public Skip(string why) : base(why) { } }

static class Secrets
{
    public static string Fingerprint(string secret)
    {
        using (var sha = SHA256.Create())
        {
            var hash = sha.ComputeHash(Encoding.UTF8.GetBytes(secret ?? ""));
            return "sha256:" + string.Concat(hash.Select(b => b.ToString("x2"))).Substring(0, 12);
        }
    }

    public static string Fingerprints(IEnumerable<string> secrets)
    {
        var list = secrets.Select(Fingerprint).ToList();
        return list.Count == 0 ? "none" : string.Join(", ", list);
    }

    public static string Base64Url(string text) =>
        Convert.ToBase64String(Encoding.UTF8.GetBytes(text)).TrimEnd('=').Replace('+', '-').Replace('/', '_');
}

/// The identity provider: answers instance discovery and OpenID metadata for any host, and redeems only the
/// refresh tokens it was told to accept, for one client id, issuing "lifecycle-at-N" / "lifecycle-rt-N".
sealed class FakeIdp : HttpMessageHandler
{
    static int issuedCount;
    readonly string homeAccountId, clientId, username, familyId;
    readonly HashSet<string> accepted;
    readonly bool acceptAny;
    public readonly List<string> Posted = new List<string>();  // refresh tokens of every token POST
    public readonly List<Tuple<string, string>> Issued = new List<Tuple<string, string>>();  // (AT, RT) answered

    /// The instance discovery metadata Azure AD answers (preferred network, preferred cache, aliases): MSAL.NET
    /// writes its cache entries under the preferred cache host.
    static readonly string[][] Clouds = {
        new[] { "login.microsoftonline.com", "login.windows.net",
            "login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net" },
        new[] { "login.partner.microsoftonline.cn", "login.partner.microsoftonline.cn",
            "login.partner.microsoftonline.cn", "login.chinacloudapi.cn" },
        new[] { "login.microsoftonline.de", "login.microsoftonline.de", "login.microsoftonline.de" },
        new[] { "login.microsoftonline.us", "login.microsoftonline.us",
            "login.microsoftonline.us", "login.usgovcloudapi.net" },
        new[] { "login-us.microsoftonline.com", "login-us.microsoftonline.com", "login-us.microsoftonline.com" } };

    public FakeIdp(string homeAccountId, string username, string clientId = null, IEnumerable<string> accepted = null,
        string familyId = null, bool acceptAny = false)
    {
        this.acceptAny = acceptAny;
        this.homeAccountId = homeAccountId;
        this.username = username;
        this.clientId = clientId;
        this.accepted = new HashSet<string>(accepted ?? Enumerable.Empty<string>());
        this.familyId = familyId;
    }

    static HttpResponseMessage Json(HttpStatusCode status, JsonObject body) =>
        new HttpResponseMessage(status) { Content = new StringContent(body.ToString(), Encoding.UTF8, "application/json") };

    static JsonObject Error(string code, string why) =>
        new JsonObject { { "error", code }, { "error_description", "msalnet fake: " + why } };

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken token)
    {
        var url = request.RequestUri;
        if (request.Method == HttpMethod.Get && url.AbsolutePath.EndsWith("/discovery/instance"))
        {
            var clouds = new JsonArray(Clouds.Select(cloud => (JsonValue)new JsonObject {
                { "preferred_network", cloud[0] }, { "preferred_cache", cloud[1] },
                { "aliases", new JsonArray(cloud.Skip(2).Select(a => (JsonValue)new JsonPrimitive(a))) } }));
            return Json(HttpStatusCode.OK, new JsonObject {
                { "tenant_discovery_endpoint", "https://" + url.Host + "/common/v2.0/.well-known/openid-configuration" },
                { "api-version", "1.1" }, { "metadata", clouds } });
        }
        if (request.Method == HttpMethod.Get && url.AbsolutePath.EndsWith("/.well-known/openid-configuration"))
        {
            var path = url.AbsolutePath.Substring(0, url.AbsolutePath.Length - "/.well-known/openid-configuration".Length);
            if (path.EndsWith("/v2.0")) path = path.Substring(0, path.Length - 5);
            var baseUrl = url.Scheme + "://" + url.Authority + path;
            return Json(HttpStatusCode.OK, new JsonObject {
                { "issuer", baseUrl + "/v2.0" }, { "token_endpoint", baseUrl + "/oauth2/v2.0/token" },
                { "authorization_endpoint", baseUrl + "/oauth2/v2.0/authorize" } });
        }
        if (request.Method != HttpMethod.Post)
            return Json(HttpStatusCode.NotFound, Error("not_found", url.AbsolutePath));
        var form = ParseForm(await request.Content.ReadAsStringAsync().ConfigureAwait(false));
        string grant, client, refresh, scope;
        form.TryGetValue("grant_type", out grant);
        form.TryGetValue("client_id", out client);
        form.TryGetValue("refresh_token", out refresh);
        form.TryGetValue("scope", out scope);
        lock (Posted) Posted.Add(refresh);
        if (grant != "refresh_token") return Json(HttpStatusCode.BadRequest, Error("unsupported_grant_type", grant));
        if (client != clientId || string.IsNullOrEmpty(refresh) || !(acceptAny || accepted.Contains(refresh)))
            return Json(HttpStatusCode.BadRequest, Error("invalid_grant", "not accepted"));
        var n = Interlocked.Increment(ref issuedCount);
        var at = "lifecycle-at-" + n;
        var rt = "lifecycle-rt-" + n;
        lock (Issued) Issued.Add(Tuple.Create(at, rt));
        var reserved = new[] { "openid", "profile", "offline_access" };
        var granted = (scope ?? "").Split(' ').Where(s => s.Length > 0 && !reserved.Contains(s))
            .OrderBy(s => s, StringComparer.Ordinal);
        var parts = homeAccountId.Split(new[] { '.' }, 2);
        var tenant = parts.Length == 2 ? parts[1] : "common";
        var header = Secrets.Base64Url("{\"alg\":\"none\",\"typ\":\"JWT\"}");
        var claims = new JsonObject {
            { "ver", "2.0" }, { "iss", "https://login.microsoftonline.com/" + tenant + "/v2.0" }, { "aud", client },
            { "oid", parts[0] }, { "tid", tenant }, { "sub", "sub-" + parts[0] }, { "preferred_username", username } };
        var response = new JsonObject {
            { "token_type", "Bearer" }, { "scope", string.Join(" ", granted) }, { "expires_in", 3599 },
            { "ext_expires_in", 3599 }, { "access_token", at }, { "refresh_token", rt },
            { "id_token", header + "." + Secrets.Base64Url(claims.ToString()) + "." } };
        if (parts.Length == 2)
            response["client_info"] = Secrets.Base64Url(new JsonObject { { "uid", parts[0] }, { "utid", parts[1] } }.ToString());
        if (familyId != null) response["foci"] = familyId;
        return Json(HttpStatusCode.OK, response);
    }

    static Dictionary<string, string> ParseForm(string text)
    {
        var result = new Dictionary<string, string>();
        foreach (var pair in text.Split('&').Where(p => p.Length > 0))
        {
            var at = pair.IndexOf('=');
            Func<string, string> decode = s => Uri.UnescapeDataString(s.Replace('+', ' '));
            result[decode(at < 0 ? pair : pair.Substring(0, at))] = at < 0 ? "" : decode(pair.Substring(at + 1));
        }
        return result;
    }
}

sealed class FakeIdpFactory : IMsalHttpClientFactory
{
    readonly FakeIdp idp;
    public FakeIdpFactory(FakeIdp idp) { this.idp = idp; }
    public HttpClient GetHttpClient() => new HttpClient(idp, false);
}

/// The unified cache as MSAL.NET serialized it, read by fields (never by key), like the Python oracle.
static class CacheView
{
    public static IEnumerable<JsonObject> Entries(JsonValue state, string section, string homeAccountId = null)
    {
        if (state == null || !state.ContainsKey(section) || state[section].JsonType != JsonType.Object) yield break;
        foreach (var pair in (JsonObject)state[section])
        {
            var entry = pair.Value as JsonObject;
            if (entry == null) continue;
            if (homeAccountId != null && Field(entry, "home_account_id") != homeAccountId) continue;
            yield return entry;
        }
    }

    public static string Field(JsonObject entry, string name)
    {
        JsonValue value;
        if (!entry.TryGetValue(name, out value) || value == null) return null;
        return value.JsonType == JsonType.String ? (string)value : value.ToString();
    }

    public static string FamilyOf(JsonValue state, string clientId)
    {
        foreach (var meta in Entries(state, "AppMetadata"))
            if (Field(meta, "client_id") == clientId && !string.IsNullOrEmpty(Field(meta, "family_id")))
                return Field(meta, "family_id");
        foreach (var rt in Entries(state, "RefreshToken"))
            if (Field(rt, "client_id") == clientId && !string.IsNullOrEmpty(Field(rt, "family_id")))
                return Field(rt, "family_id");
        return null;
    }

    public static List<JsonObject> RefreshTokens(JsonValue state, string homeAccountId, string clientId, string familyId) =>
        Entries(state, "RefreshToken", homeAccountId).Where(rt => Field(rt, "client_id") == clientId
            || (familyId != null && Field(rt, "family_id") == familyId)).ToList();
}

sealed class Spec
{
    public string Label, Username, HomeAccountId, Environment, ClientId, Authority, FamilyPeerClientId, ExpectedRT;
    public string[] Scopes;
    public bool? ExpectCachedAccessToken;

    public static Spec From(JsonValue json)
    {
        Func<string, string> text = name => json.ContainsKey(name) && json[name] != null ? (string)json[name] : null;
        var spec = new Spec {
            Label = text("label"), Username = text("username"), HomeAccountId = text("homeAccountId"),
            Environment = text("environment"), ClientId = text("clientId"), Authority = text("authority"),
            FamilyPeerClientId = text("familyPeerClientId"), ExpectedRT = text("expectedRefreshTokenFingerprint"),
            Scopes = ((JsonArray)json["scopes"]).Select(s => (string)s).ToArray() };
        if (json.ContainsKey("expectCachedAccessToken") && json["expectCachedAccessToken"] != null)
            spec.ExpectCachedAccessToken = (bool)json["expectCachedAccessToken"];
        if (new[] { spec.Username, spec.HomeAccountId, spec.Environment, spec.ClientId, spec.Authority }.Any(string.IsNullOrEmpty))
            throw new ArgumentException("account " + spec.Username + " lacks a required field");
        return spec;
    }
}

/// One public client application over a copy of the cache bytes, as an app would wire its persistence.
sealed class App
{
    public readonly IPublicClientApplication Client;
    public byte[] Cache;
    public App(string clientId, string authority, FakeIdp idp, byte[] msalCache = null, byte[] adalBlob = null)
    {
        Cache = msalCache;
        var builder = PublicClientApplicationBuilder.Create(clientId).WithAuthority(authority)
            .WithHttpClientFactory(new FakeIdpFactory(idp));
        // MSALNET_ORACLE_LOG=1: MSAL.NET's own log (no personal data) on stderr, to see why a check failed.
        if (System.Environment.GetEnvironmentVariable("MSALNET_ORACLE_LOG") == "1")
            builder = builder.WithLogging((level, message, pii) => Console.Error.WriteLine(message), LogLevel.Verbose, false);
        Client = builder.Build();
        bool adalLoaded = false;
        Client.UserTokenCache.SetBeforeAccess(args => {
            if (Cache != null) args.TokenCache.DeserializeMsalV3(Cache, true);
            if (adalBlob != null && !adalLoaded) { args.TokenCache.DeserializeAdalV3(adalBlob); adalLoaded = true; }
        });
        Client.UserTokenCache.SetAfterAccess(args => {
            if (args.HasStateChanged) Cache = args.TokenCache.SerializeMsalV3();
        });
    }

    public JsonValue State => Cache == null ? new JsonObject() : JsonValue.Parse(Encoding.UTF8.GetString(Cache));

    public IAccount Account(Spec spec)
    {
        var found = Client.GetAccountsAsync().Result.ToList();
        var match = found.FirstOrDefault(a => string.Equals(a.Username, spec.Username, StringComparison.OrdinalIgnoreCase)
            && a.HomeAccountId != null && a.HomeAccountId.Identifier == spec.HomeAccountId
            && string.Equals(a.Environment, spec.Environment, StringComparison.OrdinalIgnoreCase));
        if (match == null)
            throw new CheckFailed("GetAccountsAsync returned " + (found.Count == 0 ? "nothing" : string.Join(", ",
                found.Select(a => (a.HomeAccountId == null ? "(no home id)" : a.HomeAccountId.Identifier) + "@" + a.Environment))));
        return match;
    }

    public AuthenticationResult Silent(Spec spec, IAccount account, bool force)
    {
        try { return Client.AcquireTokenSilent(spec.Scopes, account).WithForceRefresh(force).ExecuteAsync().Result; }
        catch (AggregateException error) { throw error.GetBaseException(); }
    }
}

sealed class Lifecycle
{
    readonly byte[] cache;
    readonly JsonValue state;
    readonly Dictionary<Spec, Tuple<string, JsonValue>> refreshed = new Dictionary<Spec, Tuple<string, JsonValue>>();
    public Lifecycle(byte[] cache) { this.cache = cache; state = JsonValue.Parse(Encoding.UTF8.GetString(cache)); }

    App Fresh(Spec spec, FakeIdp idp, string clientId = null) =>
        new App(clientId ?? spec.ClientId, spec.Authority, idp, (byte[])cache.Clone());

    string Found(Spec spec)
    {
        var account = Fresh(spec, new FakeIdp(spec.HomeAccountId, spec.Username)).Account(spec);
        return "found in " + account.Environment;
    }

    string Refresh(Spec spec)
    {
        var family = CacheView.FamilyOf(state, spec.ClientId);
        var before = CacheView.RefreshTokens(state, spec.HomeAccountId, spec.ClientId, family);
        if (before.Count == 0) throw new CheckFailed("the cache holds no RT of this user for this client or its family");
        var idp = new FakeIdp(spec.HomeAccountId, spec.Username, spec.ClientId,
            before.Select(rt => CacheView.Field(rt, "secret")), family);
        var app = Fresh(spec, idp);
        // An expired access token must make MSAL.NET refresh by itself; otherwise the refresh is forced.
        var force = spec.ExpectCachedAccessToken != false;
        var result = app.Silent(spec, app.Account(spec), force);
        if (idp.Posted.Count == 0) throw new CheckFailed("no token request was sent");
        if (idp.Issued.Count == 0)
            throw new CheckFailed("posted RT(s) " + Secrets.Fingerprints(idp.Posted) + " are not this user's for this client/family");
        var posted = Secrets.Fingerprint(idp.Posted.Last());
        if (spec.ExpectedRT != null && posted != spec.ExpectedRT)
            throw new CheckFailed("posted " + posted + ", expected " + spec.ExpectedRT);
        var issued = idp.Issued.Last();
        if (result.AccessToken != issued.Item1) throw new CheckFailed("AcquireTokenSilent did not return the refreshed AT");
        var secrets = CacheView.Entries(app.State, "RefreshToken").Select(rt => CacheView.Field(rt, "secret")).ToList();
        if (!secrets.Contains(issued.Item2)) throw new CheckFailed("the new RT is not in the cache");
        refreshed[spec] = Tuple.Create(idp.Posted.Last(), app.State);
        return (force ? "forced refresh" : "expired AT refreshed") + ": redeemed " + posted + ", got the new AT and RT";
    }

    /// MSAL.NET writes the new refresh token under the key it computes (its preferred cache host); the one it
    /// redeemed is gone only if it sat under that same key.
    string Replaced(Spec spec)
    {
        Tuple<string, JsonValue> outcome;
        if (!refreshed.TryGetValue(spec, out outcome)) throw new CheckFailed("prerequisite: the refresh failed");
        var stale = CacheView.Entries(outcome.Item2, "RefreshToken").Where(rt => CacheView.Field(rt, "secret") == outcome.Item1).ToList();
        var fresh = CacheView.Entries(outcome.Item2, "RefreshToken", spec.HomeAccountId)
            .Where(rt => CacheView.Field(rt, "secret").StartsWith("lifecycle-rt-")).ToList();
        if (stale.Count > 0)
            throw new CheckFailed("the redeemed RT " + Secrets.Fingerprint(outcome.Item1) + " stays under " +
                string.Join(", ", stale.Select(rt => CacheView.Field(rt, "environment"))) + " beside the new one under " +
                string.Join(", ", fresh.Select(rt => CacheView.Field(rt, "environment"))));
        return "the new RT replaced the redeemed one under " + string.Join(", ", fresh.Select(rt => CacheView.Field(rt, "environment")));
    }

    /// After the refresh, a second app instance over the cache MSAL.NET saved, against an identity provider that
    /// now takes only the refresh token it issued (rotation): the next silent refresh must post the new token, not
    /// one left beside it under another alias.
    string SecondRefresh(Spec spec)
    {
        Tuple<string, JsonValue> outcome;
        if (!refreshed.TryGetValue(spec, out outcome)) throw new CheckFailed("prerequisite: the refresh failed");
        var issued = CacheView.Entries(outcome.Item2, "RefreshToken", spec.HomeAccountId)
            .Select(rt => CacheView.Field(rt, "secret")).Where(s => s.StartsWith("lifecycle-rt-")).ToList();
        if (issued.Count != 1) throw new CheckFailed(issued.Count + " refresh tokens issued by the refresh in the cache");
        var idp = new FakeIdp(spec.HomeAccountId, spec.Username, spec.ClientId, issued,
            CacheView.FamilyOf(state, spec.ClientId));
        var app = new App(spec.ClientId, spec.Authority, idp, Encoding.UTF8.GetBytes(outcome.Item2.ToString()));
        try { app.Silent(spec, app.Account(spec), true); }
        catch (MsalException error)
        {
            throw new CheckFailed("the second refresh failed (" + error.ErrorCode + "): posted " +
                Secrets.Fingerprints(idp.Posted) + ", the new RT is " + Secrets.Fingerprint(issued[0]));
        }
        if (idp.Issued.Count == 0) throw new CheckFailed("posted " + Secrets.Fingerprints(idp.Posted));
        return "the second refresh posted the new RT " + Secrets.Fingerprint(idp.Posted.Last());
    }

    string SignOut(Spec spec)
    {
        var family = CacheView.FamilyOf(state, spec.ClientId);
        var app = Fresh(spec, new FakeIdp(spec.HomeAccountId, spec.Username));
        app.Client.RemoveAsync(app.Account(spec)).Wait();
        var after = app.State;
        var left = new Dictionary<string, int> {
            { "Account", CacheView.Entries(after, "Account", spec.HomeAccountId).Count() },
            { "IdToken", CacheView.Entries(after, "IdToken", spec.HomeAccountId).Count() },
            { "AccessToken", CacheView.Entries(after, "AccessToken", spec.HomeAccountId).Count() },
            { "RefreshToken", CacheView.RefreshTokens(after, spec.HomeAccountId, spec.ClientId, family).Count } };
        if (left.Values.Any(n => n > 0))
            throw new CheckFailed("RemoveAsync left " + string.Join(", ", left.Where(p => p.Value > 0).Select(p => p.Value + " " + p.Key)));
        return "removed " + string.Join(", ", new[] { "Account", "IdToken", "AccessToken" }.Select(s =>
            CacheView.Entries(state, s, spec.HomeAccountId).Count() + " " + s)) + ", " +
            CacheView.RefreshTokens(state, spec.HomeAccountId, spec.ClientId, family).Count + " RefreshToken";
    }

    string Family(Spec spec)
    {
        if (spec.FamilyPeerClientId == null) throw new Skip("no familyPeerClientId");
        var family = CacheView.FamilyOf(state, spec.ClientId);
        if (family == null) throw new CheckFailed("client " + spec.ClientId + " has no family_id in the cache");
        var frts = CacheView.Entries(state, "RefreshToken", spec.HomeAccountId)
            .Where(rt => CacheView.Field(rt, "family_id") == family).ToList();
        if (frts.Count == 0) throw new CheckFailed("no RT of this user with family_id " + family);
        var idp = new FakeIdp(spec.HomeAccountId, spec.Username, spec.FamilyPeerClientId,
            frts.Select(rt => CacheView.Field(rt, "secret")), family);
        var app = Fresh(spec, idp, spec.FamilyPeerClientId);
        var result = app.Silent(spec, app.Account(spec), false);
        if (idp.Issued.Count == 0)
            throw new CheckFailed("peer did not redeem the family RT (posted " + Secrets.Fingerprints(idp.Posted) + ")");
        if (result.AccessToken != idp.Issued.Last().Item1) throw new CheckFailed("the peer did not get the new AT");
        return "peer " + spec.FamilyPeerClientId + " redeemed FRT " + Secrets.Fingerprint(idp.Posted.Last());
    }

    string CachedAccessToken(Spec spec)
    {
        if (spec.ExpectCachedAccessToken == false) throw new Skip("expectCachedAccessToken is false");
        var idp = new FakeIdp(spec.HomeAccountId, spec.Username);  // accepts nothing: a POST is itself the failure
        var app = Fresh(spec, idp);
        AuthenticationResult result;
        try { result = app.Silent(spec, app.Account(spec), false); }
        catch (MsalException error)
        {
            if (spec.ExpectCachedAccessToken == null) throw new Skip("no usable AT: " + error.ErrorCode);
            throw new CheckFailed("no AT served from the cache: " + error.ErrorCode);
        }
        if (idp.Posted.Count > 0) throw new CheckFailed("a token request was sent");
        var cached = CacheView.Entries(state, "AccessToken", spec.HomeAccountId).Select(at => CacheView.Field(at, "secret"));
        if (!cached.Contains(result.AccessToken)) throw new CheckFailed("returned an AT that is not in the file");
        if (result.AuthenticationResultMetadata.TokenSource != TokenSource.Cache)
            throw new CheckFailed("token source is " + result.AuthenticationResultMetadata.TokenSource);
        return "served " + Secrets.Fingerprint(result.AccessToken) + " from the cache, no request";
    }

    public JsonObject Run(Spec spec)
    {
        var checks = new JsonObject();
        var named = new List<Tuple<string, Func<Spec, string>>> {
            Tuple.Create<string, Func<Spec, string>>("found", Found),
            Tuple.Create<string, Func<Spec, string>>("refresh", Refresh),
            Tuple.Create<string, Func<Spec, string>>("replaced", Replaced),
            Tuple.Create<string, Func<Spec, string>>("second_refresh", SecondRefresh),
            Tuple.Create<string, Func<Spec, string>>("sign_out", SignOut),
            Tuple.Create<string, Func<Spec, string>>("family", Family),
            Tuple.Create<string, Func<Spec, string>>("cached_at", CachedAccessToken) };
        foreach (var check in named)
            checks[check.Item1] = Program.Outcome(() => check.Item2(spec));
        return checks;
    }
}

static class Program
{
    public static JsonObject Outcome(Func<string> check)
    {
        try { return new JsonObject { { "status", "pass" }, { "reason", check() } }; }
        catch (Skip why) { return new JsonObject { { "status", "skip" }, { "reason", why.Message } }; }
        catch (CheckFailed why) { return new JsonObject { { "status", "fail" }, { "reason", why.Message } }; }
        catch (Exception error)
        {
            var inner = error.GetBaseException();
            var message = inner.Message.Length > 200 ? inner.Message.Substring(0, 200) : inner.Message;
            return new JsonObject { { "status", "fail" }, { "reason", "raised " + inner.GetType().Name + ": " + message } };
        }
    }

    static int Report(List<JsonObject> accounts)
    {
        var statuses = accounts.SelectMany(a => ((JsonObject)a["checks"]).Select(c => (string)c.Value["status"])).ToList();
        int passed = statuses.Count(s => s == "pass"), failed = statuses.Count(s => s == "fail"), skipped = statuses.Count(s => s == "skip");
        var summary = passed + " passed, " + failed + " failed, " + skipped + " skipped";
        var output = new JsonObject {
            { "msal", typeof(PublicClientApplication).Assembly.GetName().Version.ToString() },
            { "accounts", new JsonArray(accounts.Cast<JsonValue>()) }, { "passed", passed }, { "failed", failed },
            { "skipped", skipped }, { "summary", summary } };
        Console.WriteLine(output.ToString());
        Console.Error.WriteLine(summary);
        return failed == 0 ? 0 : 1;
    }

    static JsonObject Labelled(Spec spec, JsonObject checks) =>
        new JsonObject { { "label", spec.Label ?? spec.Username }, { "homeAccountId", spec.HomeAccountId }, { "checks", checks } };

    static List<Spec> Specs(string argsFile) =>
        ((JsonArray)JsonValue.Parse(File.ReadAllText(argsFile))["accounts"]).Select(Spec.From).ToList();

    /// DeserializeAdalV3, then what an app does next: list the accounts and ask silently for each spec's scopes.
    /// MSAL.NET keeps the ADAL entries apart and redeems the refresh token it finds for the account; what it then
    /// holds in its own cache is what it built from the blob.
    static int AdalBlob(string blobFile, string argsFile, string outFile)
    {
        var blob = File.ReadAllBytes(blobFile);
        var specs = Specs(argsFile);
        var accounts = new List<JsonObject>();
        byte[] cache = null;
        foreach (var spec in specs)
        {
            // The ADAL refresh token is in the blob only; the check below pins it by fingerprint.
            var idp = new FakeIdp(spec.HomeAccountId, spec.Username, spec.ClientId, acceptAny: true);
            var app = new App(spec.ClientId, spec.Authority, idp, cache, blob);
            var checks = new JsonObject();
            IAccount account = null;
            checks["found"] = Outcome(() => { account = app.Account(spec); return "found in " + account.Environment; });
            checks["refresh"] = Outcome(() => {
                if (account == null) throw new CheckFailed("prerequisite: no account");
                var result = app.Silent(spec, account, false);
                if (idp.Posted.Count != 1) throw new CheckFailed(idp.Posted.Count + " token requests, expected 1");
                var posted = Secrets.Fingerprint(idp.Posted[0]);
                if (spec.ExpectedRT != null && posted != spec.ExpectedRT)
                    throw new CheckFailed("posted " + posted + ", expected " + spec.ExpectedRT);
                if (result.AccessToken != idp.Issued.Last().Item1) throw new CheckFailed("did not return the new AT");
                return "redeemed the ADAL RT " + posted;
            });
            cache = app.Cache;
            accounts.Add(Labelled(spec, checks));
        }
        File.WriteAllBytes(outFile, cache ?? Encoding.UTF8.GetBytes("{}"));
        return Report(accounts);
    }

    static int Main(string[] args)
    {
        try
        {
            if (args.Length == 3 && args[0] == "lifecycle")
            {
                var lifecycle = new Lifecycle(File.ReadAllBytes(args[1]));
                return Report(Specs(args[2]).Select(spec => Labelled(spec, lifecycle.Run(spec))).ToList());
            }
            if (args.Length == 4 && args[0] == "adal-blob") return AdalBlob(args[1], args[2], args[3]);
        }
        catch (Exception error) when (error is IOException || error is ArgumentException || error is InvalidCastException
            || error is KeyNotFoundException || error is FormatException)
        {
            Console.Error.WriteLine("bad usage: " + error.Message);
            return 2;
        }
        Console.Error.WriteLine("usage: msalnet_oracle.exe lifecycle CACHE ARGS | adal-blob BLOB ARGS OUT");
        return 2;
    }
}
