#!/usr/bin/env python3
"""Runs the real MSAL Python library through an account's lifecycle on a unified cache (fake network).

Usage: msal_python_lifecycle.py [--cache PATH] [ARGS_JSON | ARGS_FILE]     (ARGS on stdin when omitted)

ARGS:
  {
    "cache": "<path to the unified cache JSON>",        # --cache PATH overrides it
    "now": 1790000555,                                   # optional epoch seconds; time.time() is pinned to it
                                                         # (default: the wall clock when the run starts)
    "accounts": [
      {
        "label": "alice (FOCI)",                         # optional, only echoed in the output
        "username": "alice@contoso.example",             # get_accounts(username=...) filter (case-insensitive)
        "homeAccountId": "<uid>.<utid>",
        "environment": "login.microsoftonline.com",      # the Account's environment (= the authority's host)
        "clientId": "04b07795-8ddb-461a-bbee-02f9e1bf7b46",
        "authority": "https://login.microsoftonline.com/<tenant>",
        "scopes": ["https://management.core.windows.net//.default"],
        "familyPeerClientId": "872cd9fa-...",            # optional: another member of the client's FOCI family
        "expectCachedAccessToken": true,                 # optional: true = check e must find a usable AT,
                                                         # false = skip e, absent = run e only if one exists
        "sshCert": {"scopes": ["https://pas.windows.net/CheckMyAccess/Linux/.default"], "keyId": "key1"}
                                                         # optional: check f
      }, ...
    ]
  }

Every check starts from a FRESH copy of the cache file (SerializableTokenCache.deserialize) and a fresh
msal.PublicClientApplication(clientId, authority, http_client=<fake IdP>, instance_discovery=False):
  a found          get_accounts(username) returns homeAccountId in environment.
  b forced_refresh acquire_token_silent(scopes, account, force_refresh=True) posts a refresh token that is in
                   the file for this user and this client or its family; the fake IdP answers a NEW RT. After
                   that, exactly one RT of this user (environment) and this client or its family holds the new
                   secret and none the redeemed one (MSAL's update_rt replaces the redeemed entry in place; the
                   old secret left means it missed the stored key and wrote a duplicate). Another app of the
                   family keeps its own RT, as in a cache MSAL wrote.
  c sign_out       remove_account(account) leaves no Account, IdToken or AccessToken of this user in this
                   environment, and no RefreshToken of this client or its family: none with its family_id, and
                   none of an app whose AppMetadata names the family, which MSAL saves with the family_id
                   (MSAL keeps other apps' RTs).
  d family         with familyPeerClientId: an app with that client id gets a token silently by redeeming the
                   family RT (the fake IdP accepts only the file's family RT secrets, posted by the peer's client
                   id); afterwards exactly one family RT of this user holds the new secret and none the
                   redeemed one.
  e cached_at      when the file holds an unexpired AT for (user, client, authority tenant, scopes),
                   acquire_token_silent returns one of those, token_source cache, with no POST.
  f ssh_cert       with sshCert: acquire_token_silent(data={token_type: ssh-cert, key_id}) returns the file's
                   AT bound to that key_id, token_type "ssh-cert", with no POST.
A check that does not apply is "skip". The fake IdP answers OpenID discovery from the URL and refresh-token
POSTs with canned tokens ("lifecycle-at-<n>", "lifecycle-rt-<n>"); anything else gets an OAuth error.

Output (stdout, JSON): {"cache", "now", "accounts": [{"label", "username", "homeAccountId", "authority",
"clientId", "checks": {"<check>": {"status": "pass"|"fail"|"skip", "reason": "..."}}}], "passed", "failed",
"skipped", "summary": "N passed, M failed, K skipped"}; the summary line also goes to stderr. Secrets never
appear, only fingerprints "sha256:<12 hex>". Exit 0 when no check failed, 1 otherwise (also when MSAL cannot
load the cache), 2 on bad usage.
"""
import argparse
import base64
import copy
import json
import os
import sys
import time
import warnings
from unittest import mock

import msal

from fake_http import Response, fingerprint, openid_configuration

ACCESS_TOKEN, REFRESH_TOKEN, ID_TOKEN, ACCOUNT, APP_METADATA = (
    "AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata")
# MSAL treats an AT expiring within 5 minutes as expired (application.py, acquire_token_silent).
AT_MIN_LIFETIME = 5 * 60
FAKE_REQ_CNF = json.dumps({"kty": "RSA", "n": "fake-modulus-AQAB", "e": "AQAB"})
CHECKS = ("found", "forced_refresh", "sign_out", "family", "cached_at", "ssh_cert")


def fingerprints(secrets):
    return ", ".join(fingerprint(s) for s in secrets) or "none"


class UsageError(Exception):
    pass


class CheckFailed(Exception):
    pass


class Skip(Exception):
    pass



class FakeIdp:
    """Answers discovery; redeems only the refresh tokens it is told to accept, for one client id."""

    issued_count = 0  # shared, so every token handed out in a run is distinct

    def __init__(self, home_account_id, client_id=None, accepted_refresh_tokens=(), family_id=None):
        self.home_account_id = home_account_id
        self.client_id = client_id
        self.accepted = set(accepted_refresh_tokens)
        self.family_id = family_id
        self.posts = []          # {"grant_type", "client_id", "refresh_token"} of every POST
        self.issued = []         # (access_token, refresh_token) of every successful answer

    def get(self, url, params=None, headers=None, **kwargs):
        return openid_configuration(url, "lifecycle fake")

    def post(self, url, params=None, data=None, headers=None, **kwargs):
        data = dict(data or {})
        self.posts.append({"grant_type": data.get("grant_type"), "client_id": data.get("client_id"),
                           "refresh_token": data.get("refresh_token")})
        if data.get("grant_type") != "refresh_token":
            return Response(400, {"error": "unsupported_grant_type", "error_description": "lifecycle fake"})
        if data.get("client_id") != self.client_id or data.get("refresh_token") not in self.accepted:
            return Response(400, {"error": "invalid_grant", "error_description": "lifecycle fake: not accepted"})
        FakeIdp.issued_count += 1
        access_token = "lifecycle-at-%d" % FakeIdp.issued_count
        refresh_token = "lifecycle-rt-%d" % FakeIdp.issued_count
        self.issued.append((access_token, refresh_token))
        requested = [s for s in (data.get("scope") or "").split() if s not in ("openid", "profile", "offline_access")]
        response = {"access_token": access_token, "refresh_token": refresh_token, "token_type": "Bearer",
                    "expires_in": 3599, "ext_expires_in": 3599, "scope": " ".join(sorted(requested))}
        if "." in self.home_account_id:
            uid, utid = self.home_account_id.split(".", 1)
            info = json.dumps({"uid": uid, "utid": utid}).encode()
            response["client_info"] = base64.urlsafe_b64encode(info).decode().rstrip("=")
        if self.family_id:
            # Without foci in the answer MSAL would rewrite AppMetadata without family_id.
            response["foci"] = self.family_id
        return Response(200, response)

    def refresh_posts(self):
        return [p for p in self.posts if p["grant_type"] == "refresh_token"]

    def close(self):
        pass


# ---- reading the cache the way the checks need it (by fields, never by key) -------------------------------

def same_env(entry, environment):
    return (entry.get("environment") or "").lower() == environment.lower()


def entries(state, section, home_account_id=None, environment=None):
    found = []
    for entry in (state.get(section) or {}).values():
        if not isinstance(entry, dict):
            continue
        if home_account_id is not None and entry.get("home_account_id") != home_account_id:
            continue
        if environment is not None and not same_env(entry, environment):
            continue
        found.append(entry)
    return found


def family_of(state, environment, client_id):
    """The client's FOCI family: from its AppMetadata (what MSAL reads), else from one of its RTs."""
    for meta in entries(state, APP_METADATA, environment=environment):
        if meta.get("client_id") == client_id and meta.get("family_id"):
            return meta["family_id"]
    for rt in entries(state, REFRESH_TOKEN, environment=environment):
        if rt.get("client_id") == client_id and rt.get("family_id"):
            return rt["family_id"]
    return None


def family_clients(state, environment, family_id):
    """The client ids whose AppMetadata in this environment names the family."""
    return {meta.get("client_id") for meta in entries(state, APP_METADATA, environment=environment)
            if family_id and meta.get("family_id") == family_id}


def rts_of_client_or_family(state, home_account_id, environment, client_id, family_id):
    return [rt for rt in entries(state, REFRESH_TOKEN, home_account_id, environment)
            if rt.get("client_id") == client_id or (family_id and rt.get("family_id") == family_id)]


def rts_of_client_or_family_apps(state, home_account_id, environment, client_id, family_id):
    """As rts_of_client_or_family, and the RTs of every app of the family (family_clients): what sign-out removes
    from a cache MSAL wrote, where each such RT holds the family_id."""
    members = family_clients(state, environment, family_id)
    return [rt for rt in entries(state, REFRESH_TOKEN, home_account_id, environment)
            if rt.get("client_id") == client_id or rt.get("client_id") in members
            or (family_id and rt.get("family_id") == family_id)]


def family_rts(state, home_account_id, environment, family_id):
    return [rt for rt in entries(state, REFRESH_TOKEN, home_account_id, environment)
            if family_id and rt.get("family_id") == family_id]


def usable_access_tokens(state, spec, realm, scopes, now, key_id=None):
    """ATs acquire_token_silent may serve: same fields as its query, target covering scopes, not (nearly) expired."""
    usable = []
    for at in entries(state, ACCESS_TOKEN, spec["homeAccountId"], spec["environment"]):
        try:
            expires_on = int(at.get("expires_on"))
            refresh_on = int(at["refresh_on"]) if "refresh_on" in at else None
        except (TypeError, ValueError):
            continue
        if (at.get("client_id") == spec["clientId"] and at.get("realm") == realm
                and set(scopes) <= set((at.get("target") or "").split())
                and "ext_cache_key" not in at
                and (key_id is None or at.get("key_id") == key_id)
                and expires_on - now >= AT_MIN_LIFETIME
                and (refresh_on is None or refresh_on >= now)):
            usable.append(at)
    return usable


# ---- the checks ------------------------------------------------------------------------------------------

class Lifecycle:
    def __init__(self, text, now):
        self.text = text
        self.state = json.loads(text)
        self.now = now

    def fresh(self, client_id, authority, http):
        cache = msal.SerializableTokenCache()
        cache.deserialize(self.text)
        app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, http_client=http,
                                           instance_discovery=False)
        return app, cache

    @staticmethod
    def account(app, spec):
        found = app.get_accounts(username=spec["username"])
        match = next((a for a in found if a.get("home_account_id") == spec["homeAccountId"]
                      and same_env(a, spec["environment"])), None)
        return match, found

    def require_account(self, app, spec):
        match, found = self.account(app, spec)
        if match is None:
            raise CheckFailed("prerequisite: get_accounts(username) found no such account (%d others)" % len(found))
        return match

    def found(self, spec):
        app, _ = self.fresh(spec["clientId"], spec["authority"], FakeIdp(spec["homeAccountId"]))
        match, found = self.account(app, spec)
        if match is None:
            raise CheckFailed("get_accounts(username) returned %s" % (
                ", ".join("%s@%s" % (a.get("home_account_id"), a.get("environment")) for a in found) or "nothing"))
        return "found in %s (realm %s)" % (match["environment"], match.get("realm"))

    def forced_refresh(self, spec):
        hid, env, cid = spec["homeAccountId"], spec["environment"], spec["clientId"]
        family = family_of(self.state, env, cid)
        before = rts_of_client_or_family(self.state, hid, env, cid, family)
        if not before:
            raise CheckFailed("the cache holds no RT of this user for this client or its family")
        http = FakeIdp(hid, cid, [rt.get("secret") for rt in before], family)
        app, cache = self.fresh(cid, spec["authority"], http)
        result = app.acquire_token_silent(spec["scopes"], self.require_account(app, spec), force_refresh=True)
        posted = [p["refresh_token"] for p in http.refresh_posts()]
        if not posted:
            raise CheckFailed("no refresh-token request was sent")
        if not http.issued:
            raise CheckFailed("posted RT(s) %s are not this user's RTs for this client/family" % fingerprints(posted))
        new_at, new_rt = http.issued[-1]
        if not result or result.get("access_token") != new_at:
            raise CheckFailed("acquire_token_silent did not return the refreshed AT")
        after = rts_of_client_or_family(json.loads(cache.serialize()), hid, env, cid, family)
        if [rt.get("secret") for rt in after].count(new_rt) != 1:
            raise CheckFailed("after the refresh %d RT(s) remain (%s), expected one to hold the new %s" % (
                len(after), fingerprints(rt.get("secret") for rt in after), fingerprint(new_rt)))
        if any(rt.get("secret") in posted for rt in after):
            raise CheckFailed("after the refresh the redeemed RT %s is still in the cache" % fingerprints(posted))
        return "redeemed %s, which now holds the new RT %s" % (fingerprint(posted[-1]), fingerprint(new_rt))

    def sign_out(self, spec):
        hid, env, cid = spec["homeAccountId"], spec["environment"], spec["clientId"]
        family = family_of(self.state, env, cid)
        app, cache = self.fresh(cid, spec["authority"], FakeIdp(hid))
        app.remove_account(self.require_account(app, spec))
        after = json.loads(cache.serialize())
        left = {
            ACCOUNT: len(entries(after, ACCOUNT, hid, env)),
            ID_TOKEN: len(entries(after, ID_TOKEN, hid, env)),
            ACCESS_TOKEN: len(entries(after, ACCESS_TOKEN, hid, env)),
            REFRESH_TOKEN: len(rts_of_client_or_family_apps(after, hid, env, cid, family)),
        }
        if any(left.values()):
            raise CheckFailed("remove_account left " + ", ".join(
                "%d %s" % (n, section) for section, n in left.items() if n))
        before = {section: len(entries(self.state, section, hid, env)) for section in (ACCOUNT, ID_TOKEN, ACCESS_TOKEN)}
        return "removed %d Account, %d IdToken, %d AccessToken, %d RefreshToken" % (
            before[ACCOUNT], before[ID_TOKEN], before[ACCESS_TOKEN],
            len(rts_of_client_or_family_apps(self.state, hid, env, cid, family)))

    def family(self, spec):
        peer = spec.get("familyPeerClientId")
        if not peer:
            raise Skip("no familyPeerClientId")
        hid, env = spec["homeAccountId"], spec["environment"]
        family = family_of(self.state, env, spec["clientId"])
        if not family:
            raise CheckFailed("client %s has no family_id in the cache" % spec["clientId"])
        frts = family_rts(self.state, hid, env, family)
        if not frts:
            raise CheckFailed("no RT of this user with family_id %s" % family)
        http = FakeIdp(hid, peer, [rt.get("secret") for rt in frts], family)
        app, cache = self.fresh(peer, spec["authority"], http)
        result = app.acquire_token_silent(spec["scopes"], self.require_account(app, spec))
        posted = [p["refresh_token"] for p in http.refresh_posts()]
        if not http.issued:
            raise CheckFailed("peer %s did not redeem the family RT %s (posted %s)" % (
                peer, fingerprints(rt.get("secret") for rt in frts), fingerprints(posted)))
        new_at, new_rt = http.issued[-1]
        if not result or result.get("access_token") != new_at:
            raise CheckFailed("the peer's acquire_token_silent did not return the new AT")
        after = family_rts(json.loads(cache.serialize()), hid, env, family)
        if [rt.get("secret") for rt in after].count(new_rt) != 1:
            raise CheckFailed("after the peer's redemption %d family RT(s) remain (%s), expected one to hold the "
                              "new %s" % (len(after), fingerprints(rt.get("secret") for rt in after),
                                          fingerprint(new_rt)))
        if any(rt.get("secret") in posted for rt in after):
            raise CheckFailed("after the peer's redemption the redeemed family RT %s is still in the cache"
                              % fingerprints(posted))
        return "peer %s redeemed FRT %s; it now holds the new %s" % (
            peer, fingerprint(posted[-1]), fingerprint(new_rt))

    def served_from_cache(self, spec, scopes, key_id=None, data=None):
        hid = spec["homeAccountId"]
        http = FakeIdp(hid)  # accepts nothing: a POST is itself the failure
        app, _ = self.fresh(spec["clientId"], spec["authority"], http)
        expected = usable_access_tokens(self.state, spec, app.authority.tenant, scopes, self.now, key_id)
        if not expected:
            return None, None
        kwargs = {"data": data} if data else {}
        result = app.acquire_token_silent(scopes, self.require_account(app, spec), **kwargs)
        token = (result or {}).get("access_token")
        if http.posts:
            raise CheckFailed("a token request was sent although %d usable AT(s) are cached" % len(expected))
        if token not in [at.get("secret") for at in expected]:
            raise CheckFailed("returned %s, expected one of %s" % (
                fingerprint(token) if token else "nothing", fingerprints(at.get("secret") for at in expected)))
        if result.get("token_source") != "cache":
            raise CheckFailed("token_source is %s" % result.get("token_source"))
        return result, token

    def cached_at(self, spec):
        expect = spec.get("expectCachedAccessToken")
        if expect is False:
            raise Skip("expectCachedAccessToken is false")
        result, token = self.served_from_cache(spec, spec["scopes"])
        if result is None:
            if expect:
                raise CheckFailed("no unexpired AT for these scopes in the cache")
            raise Skip("no unexpired AT for these scopes in the cache")
        return "served %s from the cache, no request" % fingerprint(token)

    def ssh_cert(self, spec):
        ssh = spec.get("sshCert")
        if not ssh:
            raise Skip("no sshCert")
        data = {"token_type": "ssh-cert", "key_id": ssh["keyId"], "req_cnf": FAKE_REQ_CNF}
        result, token = self.served_from_cache(spec, ssh["scopes"], key_id=ssh["keyId"], data=data)
        if result is None:
            raise CheckFailed("no unexpired AT with key_id %s for these scopes in the cache" % ssh["keyId"])
        if result.get("token_type") != "ssh-cert":
            raise CheckFailed("served %s with token_type %s" % (fingerprint(token), result.get("token_type")))
        return "served SSH certificate %s from the cache, no request" % fingerprint(token)

    def run(self, spec):
        checks = {}
        for name in CHECKS:
            try:
                checks[name] = {"status": "pass", "reason": getattr(self, name)(spec)}
            except Skip as why:
                checks[name] = {"status": "skip", "reason": str(why)}
            except CheckFailed as why:
                checks[name] = {"status": "fail", "reason": str(why)}
            except Exception as error:  # noqa: BLE001 - MSAL choking on the cache is a finding, not a crash
                checks[name] = {"status": "fail", "reason": "raised %s: %s" % (type(error).__name__, str(error)[:160])}
        return checks


# ---- command line ----------------------------------------------------------------------------------------

REQUIRED = ("username", "homeAccountId", "environment", "clientId", "authority", "scopes")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", help="cache file, overriding ARGS.cache")
    parser.add_argument("args", nargs="?", help="ARGS as JSON text or a file holding it (default: stdin)")
    options = parser.parse_args(argv[1:])
    raw = options.args if options.args is not None else sys.stdin.read()
    try:
        if not raw.lstrip().startswith("{") and os.path.isfile(raw):
            with open(raw, encoding="utf-8") as handle:
                raw = handle.read()
        args = json.loads(raw)
        if options.cache:
            args["cache"] = options.cache
        if not isinstance(args.get("cache"), str) or not isinstance(args.get("accounts"), list):
            raise UsageError("ARGS needs \"cache\" and an \"accounts\" list")
        for spec in args["accounts"]:
            missing = [k for k in REQUIRED if not spec.get(k)]
            if missing:
                raise UsageError("account %s lacks %s" % (spec.get("username"), ", ".join(missing)))
            if not isinstance(spec["scopes"], list):
                raise UsageError("scopes must be a list")
            ssh = spec.get("sshCert")
            if ssh is not None and not (isinstance(ssh.get("scopes"), list) and ssh.get("keyId")):
                raise UsageError("sshCert needs scopes (list) and keyId")
        with open(args["cache"], encoding="utf-8-sig") as handle:
            text = handle.read()
    except (ValueError, OSError, AttributeError, TypeError, UsageError) as error:
        raise UsageError(str(error))
    return args, text


def main(argv):
    try:
        args, text = parse_args(argv)
    except UsageError as error:
        print("bad usage: %s" % error, file=sys.stderr)
        return 2
    now = int(args.get("now") or time.time())
    output = {"cache": args["cache"], "now": now, "accounts": []}
    try:
        probe = msal.SerializableTokenCache()
        probe.deserialize(text)
        lifecycle = Lifecycle(text, now)
    except ValueError as error:  # MSAL Python cannot load the file at all
        output.update(problems=["deserialize failed: %s" % error], passed=0, failed=1, skipped=0,
                      summary="0 passed, 1 failed, 0 skipped")
        print(json.dumps(output, indent=2))
        print(output["summary"], file=sys.stderr)
        return 1

    # Pinning the clock makes the AT-expiry decisions of MSAL and of this script agree, and reproducible.
    with mock.patch("time.time", lambda: float(now)), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for spec in args["accounts"]:
            output["accounts"].append({
                "label": spec.get("label"), "username": spec["username"], "homeAccountId": spec["homeAccountId"],
                "authority": spec["authority"], "clientId": spec["clientId"],
                "checks": lifecycle.run(copy.deepcopy(spec)),
            })
    statuses = [c["status"] for a in output["accounts"] for c in a["checks"].values()]
    output["passed"], output["failed"], output["skipped"] = (statuses.count(s) for s in ("pass", "fail", "skip"))
    output["summary"] = "%d passed, %d failed, %d skipped" % (output["passed"], output["failed"], output["skipped"])
    print(json.dumps(output, indent=2))
    print(output["summary"], file=sys.stderr)
    return 0 if output["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
