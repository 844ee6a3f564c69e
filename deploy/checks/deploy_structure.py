#!/usr/bin/env python3
"""Structural checks of Tally's deployment files that no generic schema knows about.

    deploy_structure.py REPO_ROOT

Schemas say a manifest is well formed; these checks say it fits Tally: every TALLY_* variable is a setting the
binaries read (a typo would be silently ignored), stop timeouts exceed the drain grace, probes hit the HTTP
monitoring port, selectors and references point at things that exist, the image runs as non-root with a health
check. Prints one line per problem and exits 1 if there is any; needs PyYAML (and `dockerfile` for the
Dockerfile, skipped with a message when missing).
"""
import pathlib
import re
import sys

import yaml

problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def duration_seconds(text):
    """Seconds in a Tally or systemd duration: 250ms, 2.5s, 1m, 30s, or a bare number of the given unit."""
    match = re.fullmatch(r"([0-9.]+)\s*(ms|s|m|min)?", str(text).strip())
    if not match:
        return None
    value, unit = float(match.group(1)), match.group(2) or "ms"
    return value * {"ms": 0.001, "s": 1, "m": 60, "min": 60}[unit]


def known_variables(root):
    """TALLY_* variables the binaries read: those of the settings tables in docs/operating.md and docs/gateway.md,
    which a test (SettingsDocumentationTests) keeps equal to the settings the programs declare."""
    names = {"TALLY_CONFIG", "TALLY_HEALTH_BROKER"}
    for document in ("docs/operating.md", "docs/gateway.md"):
        rows = [line for line in (root / document).read_text().splitlines() if line.startswith("| `--")]
        if not rows:
            problem(document, "no settings table rows found: cannot check TALLY_* variables")
        for row in rows:
            names.update(re.findall(r"`(TALLY_[A-Z_]+)`", row))
    return names


def check_variables(where, variables, known):
    for name in variables:
        if name.startswith("TALLY_") and name not in known:
            problem(where, f"{name} is not a setting of any Tally program")


def grace_of(environment, default=10.0):
    return duration_seconds(environment.get("TALLY_SHUTDOWN_GRACE", "10s")) or default


def check_systemd(root, known):
    directory = root / "deploy/systemd"
    environment = {}
    for env_file in sorted((directory / "examples").glob("*.env")):
        pairs = {}
        for line in env_file.read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                name, _, value = line.partition("=")
                pairs[name.strip()] = value.strip()
        check_variables(env_file.relative_to(root), pairs, known)
        environment.update(pairs)
    for unit in ("tally-broker.service", "tally-worker@.service", "tally-gateway.service"):
        path = directory / unit
        text = path.read_text()
        settings = dict(re.findall(r"^(\w+)=(.*)$", text, re.M))
        for key, wanted in (("KillSignal", "SIGTERM"), ("Restart", "on-failure"), ("NoNewPrivileges", "yes"),
                            ("ProtectSystem", "strict"), ("PrivateTmp", "yes")):
            if settings.get(key) != wanted:
                problem(unit, f"{key} should be {wanted}")
        if settings.get("DynamicUser") != "yes" and not settings.get("User"):
            problem(unit, "runs as root: set DynamicUser=yes or User=")
        if "network-online.target" not in settings.get("After", ""):
            problem(unit, "should start After=network-online.target")
        stop = duration_seconds(settings.get("TimeoutStopSec", "90s").replace("sec", "s"))
        if stop is None or stop <= grace_of(environment):
            problem(unit, f"TimeoutStopSec must exceed the shutdown grace ({grace_of(environment)}s)")


# Dockerfile instructions and the flags each takes (Dockerfile reference, BuildKit syntax 1).
DOCKERFILE_FLAGS = {
    "FROM": {"platform"}, "RUN": {"mount", "network", "security"}, "CMD": set(), "LABEL": set(),
    "EXPOSE": set(), "ENV": set(), "ADD": {"chown", "chmod", "link", "keep-git-dir", "checksum", "exclude"},
    "COPY": {"from", "chown", "chmod", "link", "parents", "exclude"}, "ENTRYPOINT": set(), "VOLUME": set(),
    "USER": set(), "WORKDIR": set(), "ARG": set(), "ONBUILD": set(), "STOPSIGNAL": set(),
    "HEALTHCHECK": {"interval", "timeout", "start-period", "start-interval", "retries"}, "SHELL": set(),
    "MAINTAINER": set(),
}


def check_dockerfile(root, known):
    path = root / "deploy/container/Dockerfile"
    try:
        import dockerfile
    except ImportError:
        print("skip: Dockerfile structure (python package 'dockerfile' not installed)")
        return
    try:
        commands = dockerfile.parse_file(str(path))
    except dockerfile.GoParseError as error:
        problem(path.name, f"does not parse: {error}")
        return
    # The parser accepts any instruction and flag; `docker build` would reject unknown ones only when it runs.
    for command in commands:
        if command.cmd not in DOCKERFILE_FLAGS:
            problem(path.name, f"line {command.start_line}: unknown instruction {command.cmd}")
            continue
        for flag in command.flags:
            name = flag.lstrip("-").split("=", 1)[0]
            if name not in DOCKERFILE_FLAGS[command.cmd]:
                problem(path.name, f"line {command.start_line}: {command.cmd} has no flag --{name}")
    stages = [c for c in commands if c.cmd == "FROM"]
    if len(stages) < 2:
        problem(path.name, "should be multi-stage (build, then a slim runtime)")
    final = commands[commands.index(stages[-1]):]
    user = [c.value[0] for c in final if c.cmd == "USER"]
    if not user or user[-1].split(":")[0] in ("root", "0"):
        problem(path.name, "the runtime stage must run as a non-root USER")
    if not any(c.cmd == "HEALTHCHECK" for c in final):
        problem(path.name, "the runtime stage needs a HEALTHCHECK")
    if not any(c.cmd == "COPY" and any(f.startswith("--from=") for f in c.flags) for c in final):
        problem(path.name, "the runtime stage should COPY the binaries --from the build stage")
    runtime_installs = " ".join(" ".join(c.value) for c in final if c.cmd == "RUN")
    if "libzmq5" not in runtime_installs or "-dev" in runtime_installs:
        problem(path.name, "the runtime stage needs libzmq5 and no -dev packages")
    ignored = [line.strip().rstrip("/") for line in (root / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")] if (root / ".dockerignore").exists() else []
    for command in commands:
        if command.cmd == "COPY" and not command.flags:
            for source in command.value[:-1]:
                if not (root / source).exists():
                    problem(path.name, f"line {command.start_line}: COPY source {source} does not exist")
                elif any(source == pattern or source.startswith(pattern + "/") for pattern in ignored):
                    problem(path.name, f"line {command.start_line}: COPY source {source} is in .dockerignore")
        if command.cmd == "ENV":
            check_variables(path.name, command.value[0::2], known)


def check_compose(root, known):
    path = root / "deploy/container/compose.yaml"
    compose = yaml.safe_load(path.read_text())
    services = compose.get("services", {})
    for name in ("broker", "worker", "gateway"):
        if name not in services:
            problem(path.name, f"no service '{name}'")
    for name, service in services.items():
        environment = service.get("environment", {})
        check_variables(f"{path.name} service {name}", environment, known)
        stop = duration_seconds(service.get("stop_grace_period", "10s"))
        if stop is None or stop <= grace_of(environment):
            problem(path.name, f"service {name}: stop_grace_period must exceed the shutdown grace")
        build = service.get("build", {})
        if build and not (path.parent / build.get("context", ".") / build.get("dockerfile", "Dockerfile")).exists():
            problem(path.name, f"service {name}: build points at a missing Dockerfile")
    worker = services.get("worker", {})
    if worker.get("deploy", {}).get("replicas") != 3:
        problem(path.name, "the worker service should run 3 replicas")
    for name in ("worker", "gateway"):
        brokers = services.get(name, {}).get("environment", {}).get("TALLY_BROKERS", "")
        if "broker:" not in brokers:
            problem(path.name, f"service {name} must reach the broker by name (TALLY_BROKERS=tcp://broker:PORT)")
    check_gateway_listens(path.name, services.get("gateway", {}).get("environment", {}),
                          [str(p).rsplit(":", 1)[-1] for p in services.get("gateway", {}).get("ports", [])])


def check_gateway_listens(where, environment, exposed_ports):
    """The gateway listens on loopback unless told otherwise: in a container or a pod it must be told to listen on
    every interface, on a port that is exposed, or nothing outside can reach it."""
    listen = environment.get("TALLY_LISTEN", "127.0.0.1:8080")
    host, _, port = listen.rpartition(":")
    if host not in ("0.0.0.0", "[::]"):
        problem(where, f"the gateway listens on {listen}: only its own container could reach it (TALLY_LISTEN)")
    if port not in exposed_ports:
        problem(where, f"the gateway's port {port} (TALLY_LISTEN) is not exposed ({exposed_ports})")


def check_kubernetes(root, known):
    directory = root / "deploy/kubernetes"
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text())
    documents = []
    for resource in kustomization.get("resources", []):
        if not (directory / resource).exists():
            problem("kustomization.yaml", f"resource {resource} does not exist")
            continue
        documents += [(resource, d) for d in yaml.safe_load_all((directory / resource).read_text()) if d]
    listed = set(kustomization.get("resources", []))
    for manifest in directory.glob("*.yaml"):
        if manifest.name != "kustomization.yaml" and manifest.name not in listed:
            problem("kustomization.yaml", f"{manifest.name} is not listed in resources")
    by_kind = {}
    for source, document in documents:
        by_kind.setdefault(document["kind"], {})[document["metadata"]["name"]] = (source, document)
    config = {}
    for _, (_, document) in by_kind.get("ConfigMap", {}).items():
        config.update(document.get("data", {}))
        check_variables("ConfigMap", document.get("data", {}), known)
    deployments = by_kind.get("Deployment", {})
    for name in ("tally-broker", "tally-worker", "tally-gateway"):
        if name not in deployments:
            problem("kubernetes", f"no Deployment {name}")
    for name, (source, deployment) in deployments.items():
        spec = deployment["spec"]
        labels = spec["template"]["metadata"].get("labels", {})
        if any(labels.get(k) != v for k, v in spec["selector"]["matchLabels"].items()):
            problem(source, f"Deployment {name}: selector does not match the pod labels")
        pod = spec["template"]["spec"]
        for container in pod["containers"]:
            environment = dict(config)
            environment.update({e["name"]: e.get("value", "") for e in container.get("env", [])})
            check_variables(f"{source} {name}", environment, known)
            if pod.get("terminationGracePeriodSeconds", 30) <= grace_of(environment):
                problem(source, f"Deployment {name}: terminationGracePeriodSeconds must exceed the shutdown grace")
            http_port = (environment.get("TALLY_HTTP") or ":").rsplit(":", 1)[1]
            ports = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
            for probe_name, path in (("livenessProbe", "/livez"), ("readinessProbe", "/readyz")):
                probe = container.get(probe_name, {}).get("httpGet")
                if not probe:
                    problem(source, f"Deployment {name}: no HTTP {probe_name}")
                    continue
                port = ports.get(probe["port"], probe["port"])
                if probe.get("path") != path or str(port) != http_port:
                    problem(source, f"Deployment {name}: {probe_name} must GET {path} on TALLY_HTTP's port")
            resources = container.get("resources", {})
            if not resources.get("requests", {}).get("cpu") or not resources.get("limits", {}).get("memory"):
                problem(source, f"Deployment {name}: needs CPU requests and memory limits (the HPA scales on CPU)")
    for name, (source, service) in by_kind.get("Service", {}).items():
        selected = [d for d in deployments.values()
                    if all(d[1]["spec"]["template"]["metadata"]["labels"].get(k) == v
                           for k, v in service["spec"]["selector"].items())]
        if not selected:
            problem(source, f"Service {name} selects no Deployment's pods")
    for name, (source, hpa) in by_kind.get("HorizontalPodAutoscaler", {}).items():
        target = hpa["spec"]["scaleTargetRef"]
        if hpa["apiVersion"] != "autoscaling/v2" or target["name"] not in deployments:
            problem(source, f"HPA {name}: autoscaling/v2 aimed at an existing Deployment")
    for name, (source, budget) in by_kind.get("PodDisruptionBudget", {}).items():
        worker = deployments.get("tally-worker", (None, {"spec": {"template": {"metadata": {"labels": {}}}}}))[1]
        labels = worker["spec"]["template"]["metadata"]["labels"]
        if any(labels.get(k) != v for k, v in budget["spec"]["selector"]["matchLabels"].items()):
            problem(source, f"PodDisruptionBudget {name} does not select the workers")
    service_names = set(by_kind.get("Service", {}))
    for name in ("tally-worker", "tally-gateway"):
        if name not in deployments:
            continue
        source, deployment = deployments[name]
        environment = {}
        ports = []
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            environment.update({e["name"]: e.get("value", "") for e in container.get("env", [])})
            ports += [p for p in container.get("ports", [])]
        for endpoint in environment.get("TALLY_BROKERS", "").split(","):
            host = re.sub(r"^tcp://", "", endpoint).rsplit(":", 1)[0]
            if host.split(".")[0] not in service_names:
                problem(source, f"{name}: TALLY_BROKERS names {host}, which is no Service here")
        if name == "tally-gateway":
            check_gateway_listens(source, environment, [str(p["containerPort"]) for p in ports])
            listen_port = environment.get("TALLY_LISTEN", ":").rsplit(":", 1)[1]
            named = {p.get("name"): str(p["containerPort"]) for p in ports}
            labels = deployment["spec"]["template"]["metadata"]["labels"]
            reaching = [
                service_name for service_name, (_, service) in by_kind.get("Service", {}).items()
                if all(labels.get(k) == v for k, v in service["spec"]["selector"].items())
                and any(named.get(p.get("targetPort"), str(p.get("targetPort"))) == listen_port
                        for p in service["spec"]["ports"])
            ]
            if not reaching:
                problem(source, f"no Service reaches the gateway's API port {listen_port} (TALLY_LISTEN)")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    known = known_variables(root)
    for check in (check_systemd, check_dockerfile, check_compose, check_kubernetes):
        try:
            check(root, known)
        except (KeyError, TypeError, AttributeError, yaml.YAMLError) as error:
            problem(check.__name__, f"unexpected shape: {error!r}")
    for line in problems:
        print(f"problem: {line}")
    print(f"structure: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
