#!/usr/bin/env python3
"""Independent check of a unified cache file with the real MSAL Python library (offline).

Usage: msal_python_check.py CACHE.json [EXPECTATIONS_JSON]   (expectations from stdin when not on argv)

EXPECTATIONS is either {"<username>": "<home_account_id>", ...} or
{"accounts": [{"username": ..., "home_account_id": ..., "environment": optional, "client_id": optional}]}.

For every environment of the cache's Account section it builds msal.PublicClientApplication(client_id,
authority=https://<environment>/<tenant>, token_cache=cache) with instance discovery off and an HTTP client
that answers only the tenant-discovery (openid-configuration) request locally, then checks that
get_accounts(username=...) finds each expected home_account_id. With a client_id it also checks that MSAL's
refresh-token lookup for that app (its own RT, or the family RT) finds one. It also reads every access token
the way acquire_token_silent does (int(expires_on)). Prints a JSON result; exits 1 on any mismatch, 2 on
bad usage. Secrets are never printed.
"""
import json
import sys

import msal


class _Response:
    def __init__(self, status_code, text):
        self.status_code = status_code
        self.text = text
        self.headers = {}

    def raise_for_status(self):
        if self.status_code >= 400:
            raise RuntimeError("HTTP %d" % self.status_code)


class OfflineHttpClient:
    """Answers tenant discovery from the URL itself; any other request is an error (no network)."""

    def get(self, url, params=None, headers=None, **kwargs):
        marker = "/.well-known/openid-configuration"
        if marker not in url:
            raise RuntimeError("offline oracle: unexpected GET " + url)
        base = url.split(marker)[0]
        if base.endswith("/v2.0"):
            base = base[: -len("/v2.0")]
        config = {
            "issuer": base + "/v2.0",
            "authorization_endpoint": base + "/oauth2/v2.0/authorize",
            "token_endpoint": base + "/oauth2/v2.0/token",
        }
        return _Response(200, json.dumps(config))

    def post(self, url, **kwargs):
        raise RuntimeError("offline oracle: unexpected POST " + url)

    def close(self):
        pass


def load_expectations(raw):
    data = json.loads(raw)
    if isinstance(data, dict) and "accounts" in data:
        return data["accounts"]
    return [{"username": u, "home_account_id": h} for u, h in data.items()]


def authority_for(environment, accounts):
    here = [a for a in accounts if a.get("environment") == environment]
    if any(a.get("realm") == "adfs" or a.get("authority_type") == "ADFS" for a in here):
        return "https://%s/adfs" % environment
    return "https://%s/%s" % (environment, next((a["realm"] for a in here if a.get("realm")), "common"))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        text = handle.read()
    expectations = load_expectations(argv[2] if len(argv) > 2 else sys.stdin.read())

    cache = msal.SerializableTokenCache()
    try:
        cache.deserialize(text)
    except ValueError as error:  # MSAL Python cannot load the file at all
        print(json.dumps({"problems": ["deserialize failed: %s" % error]}, indent=2))
        return 1
    state = json.loads(text)
    accounts = list(state.get("Account", {}).values())
    environments = sorted({a.get("environment") for a in accounts if a.get("environment")})
    problems = []

    # acquire_token_silent reads every access token with int(expires_on); now=0 keeps expired ones.
    try:
        at_count = len(list(cache.search(msal.TokenCache.CredentialType.ACCESS_TOKEN, query={}, now=0)))
    except Exception as error:  # noqa: BLE001 - any failure here is a finding
        at_count = -1
        problems.append("reading access tokens failed: %s" % type(error).__name__)
    if at_count != len(state.get("AccessToken", {})) and at_count != -1:
        problems.append("access tokens: %d readable of %d" % (at_count, len(state.get("AccessToken", {}))))

    found = {}
    for environment in environments:
        app = msal.PublicClientApplication(
            "00000000-0000-0000-0000-000000000000", authority=authority_for(environment, accounts),
            token_cache=cache, http_client=OfflineHttpClient(), instance_discovery=False)
        for expectation in expectations:
            wanted_env = expectation.get("environment")
            if wanted_env and wanted_env != environment:
                continue
            for account in app.get_accounts(username=expectation["username"]):
                found.setdefault(expectation["username"], set()).add(
                    (account["home_account_id"], account["environment"]))

    results = []
    for expectation in expectations:
        username, home = expectation["username"], expectation["home_account_id"]
        homes = sorted(h for h, _ in found.get(username, set()))
        ok = home in homes
        entry = {"username": username, "expected": home, "found": homes, "ok": ok}
        client_id = expectation.get("client_id")
        if ok and client_id:
            envs = sorted(e for h, e in found[username] if h == home)
            rts = []
            for env in envs:
                query = {"home_account_id": home, "environment": env}
                own = list(cache.search(msal.TokenCache.CredentialType.REFRESH_TOKEN, query=dict(query, client_id=client_id)))
                family = list(cache.search(msal.TokenCache.CredentialType.REFRESH_TOKEN, query=dict(query, family_id="1")))
                rts += own + family
            entry["refresh_tokens"] = len(rts)
            ok = entry["ok"] = bool(rts)
        if not ok:
            problems.append("account for %s not found as MSAL Python sees it" % username)
        results.append(entry)

    print(json.dumps({"environments": environments, "access_tokens": at_count, "accounts": results,
                      "problems": problems}, indent=2, sort_keys=True))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
