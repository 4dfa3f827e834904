"""The official Python client (Debian python3-kubernetes) against a running svc server.

Usage: /usr/bin/python3 clients.py <kubeconfig> <case>

Each case talks to the server through the client's own API (typed CoreV1Api and
AppsV1Api, the watch helper, the dynamic client) and checks what comes back.
It prints "ok <case>" and exits 0 when every check holds; a failed check raises,
so the traceback names the step. test/e2e/python.test.ts runs one process per case.
"""
import json
import os
import sys
import atexit
import shutil
import tempfile
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def expect_status(fn, code, reason):
    """Runs fn and checks it raises ApiException with a Status body of that code and reason."""
    try:
        fn()
    except ApiException as e:
        check(e.status == code, "status %s, want %s: %s" % (e.status, code, e.body))
        status = json.loads(e.body)
        check(status.get("kind") == "Status", "error body is a Status: %s" % e.body)
        check(status.get("reason") == reason, "reason %s, want %s" % (status.get("reason"), reason))
        return status
    raise AssertionError("expected an ApiException %s" % code)


def configmaps(api_client):
    v1 = client.CoreV1Api(api_client)
    ns = "default"
    # The typed client sends no apiVersion or kind in the body; the server fills them from the URL.
    body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm", labels={"app": "py"}), data={"a": "1"})
    created = v1.create_namespaced_config_map(ns, body)
    check(created.metadata.name == "py-cm", "created name")
    check(created.metadata.resource_version, "created has a resourceVersion")
    check(created.metadata.uid, "created has a uid")
    check(created.data == {"a": "1"}, "created data")

    got = v1.read_namespaced_config_map("py-cm", ns)
    check(got.metadata.uid == created.metadata.uid, "read returns the same object")
    check(got.kind == "ConfigMap" and got.api_version == "v1", "read has kind and apiVersion")

    v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-other")))
    listed = v1.list_namespaced_config_map(ns, label_selector="app=py")
    check([c.metadata.name for c in listed.items] == ["py-cm"], "label selector: %s" % [c.metadata.name for c in listed.items])
    check(listed.metadata.resource_version, "list has a resourceVersion")
    everywhere = v1.list_config_map_for_all_namespaces(field_selector="metadata.name=py-other")
    check([c.metadata.name for c in everywhere.items] == ["py-other"], "field selector across namespaces")

    # A dict body is sent as a strategic merge patch.
    patched = v1.patch_namespaced_config_map("py-cm", ns, {"data": {"b": "2"}, "metadata": {"labels": {"tier": "web"}}})
    check(patched.data == {"a": "1", "b": "2"}, "strategic merge patch merged data: %s" % patched.data)
    check(patched.metadata.labels == {"app": "py", "tier": "web"}, "labels merged")
    check(patched.metadata.resource_version != created.metadata.resource_version, "patch changed the resourceVersion")
    # A list body is sent as a JSON patch.
    patched = v1.patch_namespaced_config_map("py-cm", ns, [{"op": "remove", "path": "/data/a"}])
    check(patched.data == {"b": "2"}, "json patch removed a key: %s" % patched.data)

    replaced = v1.replace_namespaced_config_map("py-cm", ns, client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="py-cm", resource_version=patched.metadata.resource_version), data={"c": "3"}))
    check(replaced.data == {"c": "3"}, "replace")
    stale = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm", resource_version=patched.metadata.resource_version))
    expect_status(lambda: v1.replace_namespaced_config_map("py-cm", ns, stale), 409, "Conflict")

    expect_status(lambda: v1.create_namespaced_config_map(ns, body), 409, "AlreadyExists")
    v1.delete_namespaced_config_map("py-cm", ns)
    v1.delete_namespaced_config_map("py-other", ns)
    status = expect_status(lambda: v1.read_namespaced_config_map("py-cm", ns), 404, "NotFound")
    check(status["details"] == {"name": "py-cm", "kind": "configmaps"}, "NotFound details: %s" % status["details"])


def namespaces(api_client):
    v1 = client.CoreV1Api(api_client)
    # A finalizer of our own keeps the namespace Terminating after the controller has done its part.
    hold = "svc.example/hold"
    created = v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="py-ns"), spec=client.V1NamespaceSpec(finalizers=[hold])))
    check(created.status.phase == "Active", "a new namespace is Active")
    check(sorted(created.spec.finalizers) == sorted(["kubernetes", hold]), "the kubernetes finalizer is added: %s" % created.spec.finalizers)
    check(v1.read_namespace("py-ns").metadata.name == "py-ns", "read namespace")
    names = [n.metadata.name for n in v1.list_namespace().items]
    check({"default", "py-ns"} <= set(names), "list namespaces: %s" % names)
    patched = v1.patch_namespace("py-ns", {"metadata": {"labels": {"team": "py"}}})
    check(patched.metadata.labels.get("team") == "py", "patch namespace labels")
    check([n.metadata.name for n in v1.list_namespace(label_selector="team=py").items] == ["py-ns"], "label selector on namespaces")

    v1.create_namespaced_config_map("py-ns", client.V1ConfigMap(metadata=client.V1ObjectMeta(name="inside")))
    v1.delete_namespace("py-ns")
    # The namespace controller empties it and removes the kubernetes finalizer; ours keeps it.
    deadline = time.time() + 30
    while True:
        ns = v1.read_namespace("py-ns")
        if ns.spec.finalizers == [hold]:
            break
        check(time.time() < deadline, "the controller did not finalize py-ns in 30 s: %s" % ns.spec.finalizers)
        time.sleep(0.2)
    check(ns.status.phase == "Terminating", "a deleted namespace is Terminating")
    check(v1.list_namespaced_config_map("py-ns").items == [], "the namespace was emptied")
    expect_status(lambda: v1.create_namespaced_config_map("py-ns", client.V1ConfigMap(metadata=client.V1ObjectMeta(name="late"))), 403, "Forbidden")
    # Removing the last finalizer through the finalize subresource deletes it.
    ns.spec.finalizers = []
    v1.replace_namespace_finalize("py-ns", ns)
    expect_status(lambda: v1.read_namespace("py-ns"), 404, "NotFound")


def deployments(api_client):
    apps = client.AppsV1Api(api_client)
    ns = "default"
    labels = {"app": "py-web"}
    body = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-web"),
        spec=client.V1DeploymentSpec(
            replicas=2,
            selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.25")]))))
    created = apps.create_namespaced_deployment(ns, body)
    # Server-side defaults come back.
    check(created.spec.strategy.type == "RollingUpdate", "default strategy: %s" % created.spec.strategy)
    check(created.spec.revision_history_limit == 10, "default revisionHistoryLimit")
    check(created.spec.template.spec.containers[0].image_pull_policy == "IfNotPresent", "default imagePullPolicy")
    check(created.metadata.generation == 1, "generation 1")

    check(apps.read_namespaced_deployment("py-web", ns).spec.replicas == 2, "read deployment")
    check([d.metadata.name for d in apps.list_namespaced_deployment(ns).items] == ["py-web"], "list deployments")

    patched = apps.patch_namespaced_deployment("py-web", ns, {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.26"}]}}}})
    containers = patched.spec.template.spec.containers
    check(len(containers) == 1 and containers[0].image == "nginx:1.26", "containers merged by name: %s" % containers)
    check(patched.metadata.generation == 2, "a spec change bumps the generation")

    scale = apps.read_namespaced_deployment_scale("py-web", ns)
    check(scale.kind == "Scale" and scale.spec.replicas == 2, "scale subresource reads replicas")
    scale.spec.replicas = 3
    scale = apps.replace_namespaced_deployment_scale("py-web", ns, scale)
    check(scale.spec.replicas == 3, "scale subresource updates replicas")
    check(apps.read_namespaced_deployment("py-web", ns).spec.replicas == 3, "the deployment follows its scale")

    bad = client.V1Deployment(metadata=client.V1ObjectMeta(name="py-bad"), spec=client.V1DeploymentSpec(
        selector=client.V1LabelSelector(match_labels={"a": "b"}),
        template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels={"a": "other"}),
                                          spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="x")]))))
    status = expect_status(lambda: apps.create_namespaced_deployment(ns, bad), 422, "Invalid")
    check(any(c.get("field") == "spec.template.metadata.labels" for c in status["details"]["causes"]), "the selector mismatch is named: %s" % status["details"])

    apps.delete_namespaced_deployment("py-web", ns)
    expect_status(lambda: apps.read_namespaced_deployment("py-web", ns), 404, "NotFound")


def scale_patch(api_client):
    apps = client.AppsV1Api(api_client)
    ns = "default"
    labels = {"app": "py-scale"}
    apps.create_namespaced_deployment(ns, client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-scale"),
        spec=client.V1DeploymentSpec(
            replicas=1, selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels=labels),
                                              spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="nginx")])))))
    try:
        # A dict body goes out as a strategic merge patch of the Scale (kubectl scale sends a merge patch).
        scale = apps.patch_namespaced_deployment_scale("py-scale", ns, {"spec": {"replicas": 4}})
        check(scale.spec.replicas == 4, "scale subresource patches replicas")
        check(apps.read_namespaced_deployment("py-scale", ns).spec.replicas == 4, "the deployment follows its scale")
    finally:
        apps.delete_namespaced_deployment("py-scale", ns)


def watches(api_client):
    v1 = client.CoreV1Api(api_client)
    ns = "default"
    v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-w1", labels={"w": "py"})))

    # Without a resourceVersion the watch starts with the existing objects as ADDED,
    # and the server ends the stream at timeoutSeconds (the client sends watch=True).
    events = [(e["type"], e["object"].metadata.name) for e in
              watch.Watch().stream(v1.list_namespaced_config_map, ns, label_selector="w=py", timeout_seconds=1)]
    check(events == [("ADDED", "py-w1")], "initial events: %s" % events)

    # From a list's resourceVersion: only what changes after it, in order.
    rv = v1.list_namespaced_config_map(ns, label_selector="w=py").metadata.resource_version

    def writer():
        time.sleep(0.3)
        v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-w2", labels={"w": "py"})))
        v1.patch_namespaced_config_map("py-w1", ns, {"data": {"k": "v"}})
        v1.delete_namespaced_config_map("py-w2", ns)

    t = threading.Thread(target=writer)
    t.start()
    seen = []
    w = watch.Watch()
    for e in w.stream(v1.list_namespaced_config_map, ns, label_selector="w=py", resource_version=rv, timeout_seconds=10):
        seen.append((e["type"], e["object"].metadata.name))
        if len(seen) == 3:
            w.stop()
    t.join()
    check(seen == [("ADDED", "py-w2"), ("MODIFIED", "py-w1"), ("DELETED", "py-w2")], "events after the list: %s" % seen)

    # A stream that sees nothing still ends at timeoutSeconds.
    quiet = list(watch.Watch().stream(v1.list_namespaced_config_map, ns, label_selector="w=none",
                                      resource_version=v1.list_namespaced_config_map(ns).metadata.resource_version, timeout_seconds=1))
    check(quiet == [], "no events: %s" % quiet)
    v1.delete_namespaced_config_map("py-w1", ns)


def rollout(api_client):
    """A Deployment rolled out by the server's controllers on simulated nodes, followed with a watch."""
    apps = client.AppsV1Api(api_client)
    ns = "default"
    container = client.V1Container(name="web", image="nginx:1.25")
    spec = client.V1DeploymentSpec(
        replicas=3, selector=client.V1LabelSelector(match_labels={"app": "py-roll"}),
        template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels={"app": "py-roll"}), spec=client.V1PodSpec(containers=[container])))
    apps.create_namespaced_deployment(ns, client.V1Deployment(metadata=client.V1ObjectMeta(name="py-roll"), spec=spec))

    def rolled_out(d):
        st = d.status
        return (st is not None and st.observed_generation == d.metadata.generation and st.updated_replicas == 3
                and st.ready_replicas == 3 and st.available_replicas == 3 and (st.replicas or 0) == 3
                and any(c.type == "Progressing" and c.reason == "NewReplicaSetAvailable" for c in (st.conditions or [])))

    def watch_until_rolled_out():
        w = watch.Watch()
        for e in w.stream(apps.list_namespaced_deployment, ns, field_selector="metadata.name=py-roll", timeout_seconds=60):
            if rolled_out(e["object"]):
                w.stop()
                return e["object"]
        raise AssertionError("the rollout did not finish within the watch")

    first = watch_until_rolled_out()
    check(first.metadata.annotations.get("deployment.kubernetes.io/revision") == "1", "revision: %s" % first.metadata.annotations)
    apps.patch_namespaced_deployment("py-roll", ns, {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.26"}]}}}})
    second = watch_until_rolled_out()
    check(second.metadata.annotations.get("deployment.kubernetes.io/revision") == "2", "revision: %s" % second.metadata.annotations)
    rss = apps.list_namespaced_replica_set(ns, label_selector="app=py-roll").items
    check(sorted((rs.spec.replicas, rs.spec.template.spec.containers[0].image) for rs in rss) == [(0, "nginx:1.25"), (3, "nginx:1.26")],
          "replica sets: %s" % [(rs.metadata.name, rs.spec.replicas) for rs in rss])
    apps.delete_namespaced_deployment("py-roll", ns)


def cache_file():
    """A discovery cache file in a temporary directory removed when the script exits."""
    d = tempfile.mkdtemp(prefix="svc-py-")
    atexit.register(shutil.rmtree, d, True)
    return os.path.join(d, "discovery.json")


def dynamic(api_client):
    cache = cache_file()
    dyn = DynamicClient(api_client, cache_file=cache)
    # Discovery walks /version, /apis, /api/v1 and /apis/<g>/<v>.
    cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
    check(cms.namespaced and cms.name == "configmaps", "ConfigMap resource: %s" % cms)
    deploys = dyn.resources.get(api_version="apps/v1", kind="Deployment")
    check(deploys.name == "deployments" and "deploy" in deploys.short_names, "Deployment resource")
    scale = deploys.subresources.get("scale")
    check(scale is not None and scale.kind == "Scale", "the scale subresource is discovered: %s" % list(deploys.subresources))
    # Both group spellings are discovered, so manifests written for Kubernetes resolve.
    k8s_roles = dyn.resources.get(api_version="rbac.authorization.k8s.io/v1", kind="Role")
    svc_roles = dyn.resources.get(api_version="rbac.authorization.svc.io/v1", kind="Role")
    check(k8s_roles.name == svc_roles.name == "roles", "roles in both spellings")
    nodes = dyn.resources.get(api_version="v1", kind="Node")
    check(not nodes.namespaced, "nodes are cluster-scoped")

    created = cms.create(body={"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-dyn"}, "data": {"x": "1"}}, namespace="default")
    check(created.metadata.name == "py-dyn", "dynamic create")
    check(cms.get(name="py-dyn", namespace="default").data.x == "1", "dynamic get")
    names = [i.metadata.name for i in cms.get(namespace="default").items]
    check("py-dyn" in names, "dynamic list: %s" % names)
    role = k8s_roles.create(body={"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "py-reader"},
                                  "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}, namespace="default")
    check(role.apiVersion == "rbac.authorization.k8s.io/v1", "a k8s.io-spelled request is answered in that spelling: %s" % role.apiVersion)
    # Not name=: 22.6 then watches the object's own path, which answers the object itself (as Kubernetes does).
    events = [e["type"] for e in cms.watch(namespace="default", field_selector="metadata.name=py-dyn", timeout=1)]
    check(events == ["ADDED"], "dynamic watch: %s" % events)
    cms.delete(name="py-dyn", namespace="default")
    k8s_roles.delete(name="py-reader", namespace="default")


def server_side_apply(api_client):
    cache = cache_file()
    dyn = DynamicClient(api_client, cache_file=cache)
    cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
    manifest = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-ssa", "namespace": "default"}, "data": {"a": "1", "b": "2"}}
    # python3-kubernetes 22.6 sends an apply-patch+yaml body only when it is already a string.
    applied = cms.server_side_apply(body=json.dumps(manifest), name="py-ssa", namespace="default", field_manager="py")
    check(applied.data.a == "1", "apply creates the object")
    managers = [(m.manager, m.operation) for m in applied.metadata.managedFields]
    check(("py", "Apply") in managers, "managedFields records the applier: %s" % managers)

    # Another manager changing a field it does not own conflicts, unless forced.
    other = dict(manifest, data={"a": "changed"})
    expect_status(lambda: cms.server_side_apply(body=json.dumps(other), name="py-ssa", namespace="default", field_manager="other"), 409, "Conflict")
    forced = cms.server_side_apply(body=json.dumps(other), name="py-ssa", namespace="default", field_manager="other", force_conflicts=True)
    check(forced.data.a == "changed", "force takes the field over")

    # A field the applier stops applying is removed; fields another manager took over stay.
    mine = dict(manifest, data={"c": "3"})
    again = cms.server_side_apply(body=json.dumps(mine), name="py-ssa", namespace="default", field_manager="py")
    check(dict(again.data) == {"a": "changed", "c": "3"}, "after the second apply: %s" % again.data)
    cms.delete(name="py-ssa", namespace="default")


def custom_objects(api_client):
    """A CRD made with ApiextensionsV1Api, its resources through CustomObjectsApi and the dynamic client."""
    ext = client.ApiextensionsV1Api(api_client)
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.py.example.com"},
        "spec": {"group": "py.example.com", "scope": "Namespaced",
                 "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "shortNames": ["ct"]},
                 "versions": [{"name": "v1", "served": True, "storage": True,
                               "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
                                   "cronSpec": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1, "default": 1}}}}}},
                               "subresources": {"status": {}}}]}}
    ext.create_custom_resource_definition(body=crd)
    for _ in range(100):
        got = ext.read_custom_resource_definition(name="crontabs.py.example.com")
        if any(c.type == "Established" and c.status == "True" for c in (got.status.conditions or [])):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the CRD did not become Established")
    co = client.CustomObjectsApi(api_client)
    body = {"apiVersion": "py.example.com/v1", "kind": "CronTab", "metadata": {"name": "nightly"}, "spec": {"cronSpec": "0 0 * * *"}}
    made = co.create_namespaced_custom_object("py.example.com", "v1", "default", "crontabs", body)
    check(made["spec"]["replicas"] == 1, "the default is applied: %s" % made)
    got = co.get_namespaced_custom_object("py.example.com", "v1", "default", "crontabs", "nightly")
    check(got["spec"]["cronSpec"] == "0 0 * * *", "get: %s" % got)
    listed = co.list_namespaced_custom_object("py.example.com", "v1", "default", "crontabs")
    check([i["metadata"]["name"] for i in listed["items"]] == ["nightly"], "list: %s" % listed)
    patched = co.patch_namespaced_custom_object("py.example.com", "v1", "default", "crontabs", "nightly", {"spec": {"replicas": 3}})
    check(patched["spec"]["replicas"] == 3 and patched["metadata"]["generation"] == 2, "merge patch: %s" % patched)
    status = co.patch_namespaced_custom_object_status("py.example.com", "v1", "default", "crontabs", "nightly", {"status": {"ok": True}})
    check(status["metadata"]["generation"] == 2, "a status write keeps the generation")
    bad = dict(body, metadata={"name": "bad"}, spec={"replicas": 0})
    st = expect_status(lambda: co.create_namespaced_custom_object("py.example.com", "v1", "default", "crontabs", bad), 422, "Invalid")
    check("spec.replicas in body should be greater than or equal to 1" in st["message"], st["message"])
    dyn = DynamicClient(api_client, cache_file=cache_file())
    crontabs = dyn.resources.get(api_version="py.example.com/v1", kind="CronTab")
    check(crontabs.name == "crontabs" and crontabs.short_names == ["ct"], "the dynamic client discovers the custom resource")
    check([i.metadata.name for i in crontabs.get(namespace="default").items] == ["nightly"], "dynamic list")
    co.delete_namespaced_custom_object("py.example.com", "v1", "default", "crontabs", "nightly")
    ext.delete_custom_resource_definition(name="crontabs.py.example.com")


CASES = {f.__name__: f for f in [configmaps, namespaces, deployments, scale_patch, watches, dynamic, server_side_apply, custom_objects, rollout]}


def main():
    kubeconfig, case = sys.argv[1], sys.argv[2]
    api_client = config.new_client_from_config(config_file=kubeconfig)
    CASES[case](api_client)
    print("ok %s" % case)


if __name__ == "__main__":
    main()
