"""The official Python client (Debian python3-kubernetes) presenting a bearer token.

Usage: /usr/bin/python3 token_auth.py <kubeconfig> <token> <expect>

The kubeconfig names the server and its CA and carries no credentials; the token
goes in as the client's api_key, as `kubectl --token` sends it. With <expect> "401"
the request must be refused as Unauthorized; otherwise <expect> is the username the
server must see (read back with a TokenReview of the same token). Prints "ok".
"""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def main():
    kubeconfig, token, expect = sys.argv[1], sys.argv[2], sys.argv[3]
    cfg = client.Configuration()
    config.load_kube_config(config_file=kubeconfig, client_configuration=cfg)
    cfg.api_key = {"authorization": "Bearer " + token}
    api = client.ApiClient(cfg)
    core = client.CoreV1Api(api)
    if expect == "401":
        try:
            core.list_namespace()
        except ApiException as e:
            if e.status != 401:
                raise AssertionError("status %s, want 401: %s" % (e.status, e.body))
            if json.loads(e.body).get("reason") != "Unauthorized":
                raise AssertionError("reason: %s" % e.body)
            print("ok")
            return
        raise AssertionError("the token was accepted")
    names = [ns.metadata.name for ns in core.list_namespace().items]
    if "default" not in names:
        raise AssertionError("namespaces: %s" % names)
    review = client.AuthenticationV1Api(api).create_token_review(
        client.V1TokenReview(spec=client.V1TokenReviewSpec(token=token)))
    if not review.status.authenticated or review.status.user.username != expect:
        raise AssertionError("token review: %s" % review.status)
    print("ok")


main()
