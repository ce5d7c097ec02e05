#!/usr/bin/env python3
"""Checks a migrated unified cache with the real MSAL Python library: silent sign-in, no network.

Usage: msal_python_silent.py ARGS_JSON        (or the JSON on stdin)

ARGS_JSON: {"cache": "<path to unified cache JSON>", "clientId": ..., "authority": "https://<host>/<tenant>",
            "username": ..., "scopes": ["<resource>/.default"], "expectedHomeAccountId": ...,
            "expectedAccessTokenFingerprint": "sha256:<12 hex>", "expectedRefreshTokenFingerprint": "sha256:<12 hex>"}

1. get_accounts(username=...) must return an account with the expected home_account_id.
2. acquire_token_silent(scopes, account) must return the cached access token (its fingerprint), with no POST;
   with "expectedAccessTokenFingerprint" null (no access token migrated, e.g. an expired one), it must instead
   redeem the expected refresh token.
3. With every access token removed from the cache, acquire_token_silent must redeem the expected refresh token:
   the fake HTTP client records the refresh_token of the token request and answers with a canned response.

The HTTP client is a fake (msal's `http_client` parameter): GET answers the authority's OpenID configuration,
POST records the form and returns a canned token response; instance discovery is off. Secrets are never
printed, only their fingerprints. Prints a JSON result; exits 1 when a check fails, 2 on bad usage.
"""
import base64
import json
import sys

import msal

from fake_http import Response, fingerprint, openid_configuration




class FakeHttpClient:
    """Answers OpenID discovery from the URL; records token requests and answers them with canned tokens."""

    def __init__(self, home_account_id):
        self.gets = []
        self.posts = []
        self.home_account_id = home_account_id

    def get(self, url, params=None, headers=None, **kwargs):
        self.gets.append(url)
        return openid_configuration(url, "offline fake")

    def post(self, url, params=None, data=None, headers=None, **kwargs):
        self.posts.append({"url": url, "data": dict(data or {})})
        response = {"access_token": "fresh-access-token", "token_type": "Bearer", "expires_in": 3600,
                    "refresh_token": "fresh-refresh-token", "scope": (data or {}).get("scope", "")}
        if "." in self.home_account_id:
            uid, utid = self.home_account_id.split(".", 1)
            info = json.dumps({"uid": uid, "utid": utid}).encode()
            response["client_info"] = base64.urlsafe_b64encode(info).decode().rstrip("=")
        return Response(200, response)

    def close(self):
        pass


def application(state, args, http):
    cache = msal.SerializableTokenCache()
    cache.deserialize(json.dumps(state))
    return msal.PublicClientApplication(
        args["clientId"], authority=args["authority"], token_cache=cache, http_client=http,
        instance_discovery=False)


def account_for(app, args):
    accounts = app.get_accounts(username=args["username"])
    homes = sorted(a["home_account_id"] for a in accounts)
    match = next((a for a in accounts if a["home_account_id"] == args["expectedHomeAccountId"]), None)
    return match, homes


def main(argv):
    raw = argv[1] if len(argv) > 1 else sys.stdin.read()
    try:
        args = json.loads(raw)
        with open(args["cache"], encoding="utf-8") as handle:
            state = json.load(handle)
    except (ValueError, KeyError, OSError) as error:
        print("bad usage: %s" % error, file=sys.stderr)
        return 2
    problems = []
    result = {"username": args["username"], "authority": args["authority"]}

    # 1 and 2: the cached access token, without a network call.
    http = FakeHttpClient(args["expectedHomeAccountId"])
    app = application(state, args, http)
    account, homes = account_for(app, args)
    result["accounts"] = homes
    if account is None:
        problems.append("get_accounts(username) did not return %s (found %s)" % (args["expectedHomeAccountId"], homes))
    else:
        silent = app.acquire_token_silent(args["scopes"], account)
        token = (silent or {}).get("access_token")
        result["accessToken"] = fingerprint(token) if token else None
        result["accessTokenSource"] = (silent or {}).get("token_source")
        result["postsWithCache"] = len(http.posts)
        if args.get("expectedAccessTokenFingerprint") is None:
            # No access token was migrated (it had expired): MSAL must refresh with the migrated refresh token.
            sent = [p["data"].get("refresh_token") for p in http.posts if p["data"].get("grant_type") == "refresh_token"]
            if not sent or fingerprint(sent[0] or "") != args["expectedRefreshTokenFingerprint"]:
                problems.append("with no cached access token, the first request did not carry the migrated refresh token")
            if token is None:
                problems.append("acquire_token_silent returned no token after the refresh")
        else:
            if token is None or fingerprint(token) != args["expectedAccessTokenFingerprint"]:
                problems.append("acquire_token_silent did not return the migrated access token")
            if http.posts:
                problems.append("acquire_token_silent sent a token request although the access token is cached")

    # 3: without access tokens, the migrated refresh token is redeemed.
    state_without_at = dict(state, AccessToken={})
    http = FakeHttpClient(args["expectedHomeAccountId"])
    app = application(state_without_at, args, http)
    account, _ = account_for(app, args)
    if account is not None:
        refreshed = app.acquire_token_silent(args["scopes"], account)
        sent = [p["data"].get("refresh_token") for p in http.posts if p["data"].get("grant_type") == "refresh_token"]
        result["refreshTokensSent"] = [fingerprint(s) for s in sent if s]
        result["refreshedAccessToken"] = bool(refreshed and refreshed.get("access_token"))
        if not sent or fingerprint(sent[0] or "") != args["expectedRefreshTokenFingerprint"]:
            problems.append("the first refresh-token request did not carry the migrated refresh token")
        if not result["refreshedAccessToken"]:
            problems.append("acquire_token_silent returned no token after the refresh")

    result["problems"] = problems
    print(json.dumps(result, indent=2, sort_keys=True))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
