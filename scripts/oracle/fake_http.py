"""What the oracle scripts and the fixture generator share: the fake HTTP answers MSAL Python takes from its
`http_client` parameter (no network), and the fingerprint that stands for a secret in their output."""
import hashlib
import json

OPENID_CONFIGURATION = "/.well-known/openid-configuration"


def fingerprint(secret):
    return "sha256:" + hashlib.sha256((secret or "").encode("utf-8")).hexdigest()[:12]


class Response:
    """The part of a requests.Response that MSAL reads."""

    def __init__(self, status_code, payload):
        self.status_code = status_code
        self.text = json.dumps(payload)
        self.headers = {}

    def raise_for_status(self):
        if self.status_code >= 400:
            raise RuntimeError("HTTP %d" % self.status_code)


def openid_configuration(url, who):
    """The OpenID discovery document of the authority in `url` (AAD v2, or ADFS for an `/adfs` authority);
    404 naming `who` for any other GET."""
    if OPENID_CONFIGURATION not in url:
        return Response(404, {"error": "not_found", "error_description": who + ": " + url})
    base = url.split(OPENID_CONFIGURATION)[0]
    if base.endswith("/v2.0"):
        base = base[: -len("/v2.0")]
    adfs = base.rstrip("/").endswith("/adfs")
    token = base + ("/oauth2/token" if adfs else "/oauth2/v2.0/token")
    return Response(200, {"issuer": base if adfs else base + "/v2.0", "token_endpoint": token,
                          "authorization_endpoint": token.replace("/token", "/authorize")})
